package org.brokerapp.k8s;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The seam between the two trees, crossed as a user crosses it: {@code terraform apply} of the
 * provider-free root {@code terraform/examples/plan} (the same regions-plan module the AWS root
 * uses; its state and data under target/, so the source tree stays clean), then
 * {@code k8s/bin/from-terraform} writes each overlay's generated component from those outputs,
 * with example secrets (only the AWS root has real ones) and images by an example digest. Once per
 * test JVM, before the first overlay is built.
 */
final class TerraformHandoff {

    /** The digest the plan is given for both images: the overlays must carry it. */
    static final String EXAMPLE_DIGEST = "sha256:" + "0123456789abcdef".repeat(4);
    static final String EXAMPLE_REGISTRY = "123456789012.dkr.ecr.us-east-1.amazonaws.com/brokerapp";
    static final Path DIR = K8sTools.TARGET.resolve("terraform-handoff");
    static final Path OUTPUTS = DIR.resolve("outputs.json");

    private static JsonNode outputs;

    private TerraformHandoff() {
    }

    /** The plan's outputs as `terraform output -json` gives them, after the overlays' components are written. */
    static synchronized JsonNode written() {
        if (outputs == null) {
            outputs = apply();
        }
        return outputs;
    }

    /** The plan's output `kubernetes` for one region. */
    static JsonNode kubernetes(String region) {
        return written().path("kubernetes").path("value").path(region);
    }

    private static JsonNode apply() {
        try {
            Files.createDirectories(DIR);
            Path terraform = K8sTools.tool("terraform");
            Path root = K8sTools.REPO.resolve("terraform/examples/plan");
            Map<String, String> env = Map.of("TF_DATA_DIR", DIR.resolve("data").toString(), "CHECKPOINT_DISABLE", "1",
                    "TF_IN_AUTOMATION", "1", "TF_CLI_CONFIG_FILE", "/dev/null");
            String state = "-state=" + DIR.resolve("terraform.tfstate");
            String images = "images={broker_service=\"%s/broker-service@%s\", ticker_feed=\"%s/ticker-feed@%s\"}"
                    .formatted(EXAMPLE_REGISTRY, EXAMPLE_DIGEST, EXAMPLE_REGISTRY, EXAMPLE_DIGEST);
            for (List<String> step : List.of(
                    List.of("init", "-backend=false", "-input=false", "-no-color"),
                    List.of("apply", "-auto-approve", "-input=false", "-no-color", "-lock=false", state, "-var", images))) {
                K8sTools.Result r = terraformIn(terraform, root, step, env);
                if (r.status() != 0) {
                    fail("terraform " + step.get(0) + " of terraform/examples/plan failed: " + r.output());
                }
            }
            K8sTools.Result output = terraformIn(terraform, root, List.of("output", "-json", "-no-color", state), env);
            if (output.status() != 0) {
                fail("terraform output failed: " + output.output());
            }
            // output and errors come together: the JSON is the one object in it
            String json = output.output().substring(output.output().indexOf('{'), output.output().lastIndexOf('}') + 1);
            Files.writeString(OUTPUTS, json);
            K8sTools.Result handoff = K8sTools.run(Duration.ofMinutes(1), List.of(K8sTools.K8S.resolve("bin/from-terraform").toString(),
                    "--output-json", OUTPUTS.toString(), "--example-secrets"));
            if (handoff.status() != 0) {
                fail("k8s/bin/from-terraform failed: " + handoff.output());
            }
            return JsonMapper.builder().build().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static K8sTools.Result terraformIn(Path terraform, Path root, List<String> args, Map<String, String> env) {
        List<String> command = new java.util.ArrayList<>(List.of(terraform.toString(), "-chdir=" + root));
        command.addAll(args);
        return K8sTools.run(Duration.ofMinutes(3), command, env);
    }
}
