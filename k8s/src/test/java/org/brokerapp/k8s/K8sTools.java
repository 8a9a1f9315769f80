package org.brokerapp.k8s;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Where the k8s/ tree and its tools are, and how the tests run them. The tools are installed by
 * {@code k8s/bin/install-tools} into {@code ~/.local/bin}; a missing one fails the test with one line
 * saying how to install it.
 */
final class K8sTools {

    static final ObjectMapper YAML = YAMLMapper.builder().build();
    static final Path K8S = Path.of(System.getProperty("k8s.dir", ".")).toAbsolutePath().normalize();
    static final Path REPO = K8S.getParent();
    static final Path TARGET = K8S.resolve("target");
    static final Path LOCAL_BIN = Path.of(System.getProperty("user.home"), ".local", "bin");
    static final Path SHARE = Path.of(System.getProperty("user.home"), ".local", "share", "brokerapp");
    static final Path SCHEMAS = SHARE.resolve("kubernetes-json-schema");

    private K8sTools() {
    }

    /** The named tool from ~/.local/bin or the PATH, or a failed test saying how to get it. */
    static Path tool(String name) {
        Path local = LOCAL_BIN.resolve(name);
        if (Files.isExecutable(local)) {
            return local;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir).resolve(name);
            if (!dir.isBlank() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return fail(name + " is not installed: run k8s/bin/install-tools (installs it into ~/.local/bin)");
    }

    /** The region overlays, by directory name. */
    static List<Path> overlays() {
        try (Stream<Path> dirs = Files.list(K8S.resolve("overlays"))) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("kustomization.yaml"))).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final Map<Path, Path> BUILT = new ConcurrentHashMap<>();

    /** The output of 'kustomize build' of an overlay, written to target/manifests/REGION.yaml (once per test JVM). */
    static Path build(Path overlay) {
        TerraformHandoff.written();
        return BUILT.computeIfAbsent(overlay, o -> {
            Path out = TARGET.resolve("manifests").resolve(o.getFileName() + ".yaml");
            try {
                Files.createDirectories(out.getParent());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Result result = run(Duration.ofMinutes(2), List.of(tool("kustomize").toString(), "build", o.toString(),
                    "--output", out.toString()));
            if (result.status() != 0) {
                fail("kustomize build " + K8S.relativize(o) + " failed: " + result.output());
            }
            return out;
        });
    }

    /** Every object of a multi-document YAML file. */
    static List<ObjectNode> objects(Path yaml) {
        try {
            List<ObjectNode> objects = new ArrayList<>();
            for (String doc : Files.readString(yaml).split("(?m)^---\\s*$")) {
                if (doc.isBlank()) {
                    continue;
                }
                JsonNode node = YAML.readTree(doc);
                if (node instanceof ObjectNode object) {
                    objects.add(object);
                }
            }
            return objects;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<ObjectNode> ofKind(List<ObjectNode> objects, String kind) {
        return objects.stream().filter(o -> kind.equals(o.path("kind").asString())).toList();
    }

    /** The one object of that kind and name (a generated ConfigMap's name may carry kustomize's hash suffix). */
    static ObjectNode one(List<ObjectNode> objects, String kind, String name) {
        List<ObjectNode> found = ofKind(objects, kind).stream().filter(o -> {
            String actual = o.path("metadata").path("name").asString();
            return actual.equals(name) || kind.equals("ConfigMap") && actual.matches(java.util.regex.Pattern.quote(name) + "-[a-z0-9]{10}");
        }).toList();
        if (found.size() != 1) {
            fail("expected one " + kind + " named " + name + ", found " + found.size());
        }
        return found.get(0);
    }

    record Result(int status, String output) {
    }

    static Result run(Duration timeout, List<String> command) {
        return run(timeout, command, Map.of());
    }

    /** Runs a command to its end, output and errors together; status -1 when it ran out of time (and was killed). */
    static Result run(Duration timeout, List<String> command, Map<String, String> environment) {
        try {
            Path log = Files.createTempFile("k8s-tool", ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            Process process = builder.start();
            boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                process.destroyForcibly().waitFor();
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            Files.delete(log);
            return ended ? new Result(process.exitValue(), output)
                    : new Result(-1, String.join(" ", command) + " did not end within " + timeout.toSeconds() + " s: " + output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A directory and everything under it, if it exists. */
    static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
