package org.brokerapp.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kubeconform -strict over every overlay's output, offline: the built-in kinds against the schemas of
 * the PyPI wheel kubernetes-validate (installed by k8s/bin/install-tools), the operators' kinds
 * against schemas converted from the CRDs kept in k8s/crds. Nothing may be skipped for want of a
 * schema. Two broken manifests prove that both schema sets really reject what they should.
 */
class KubeconformIT {

    static final String KUBERNETES_VERSION = "v1.36.0";
    static Path crdSchemas;

    @BeforeAll
    static void convertCrds() throws IOException {
        crdSchemas = K8sTools.TARGET.resolve("crd-schemas");
        List<Path> written = CrdSchemas.write(crdSchemas);
        assertThat(written).extracting(p -> crdSchemas.relativize(p).toString()).contains(
                "monitoring.coreos.com/servicemonitor_v1.json", "monitoring.coreos.com/prometheusrule_v1.json");
    }

    static K8sTools.Result kubeconform(List<Path> manifests) {
        Path builtIn = K8sTools.SCHEMAS.resolve(KUBERNETES_VERSION + "-standalone-strict");
        if (!Files.isRegularFile(builtIn.resolve("deployment-apps-v1.json"))) {
            fail("the built-in kinds' schemas are missing from " + builtIn + ": run k8s/bin/install-tools");
        }
        List<String> command = new ArrayList<>(List.of(K8sTools.tool("kubeconform").toString(), "-strict", "-summary",
                "-output", "text", "-kubernetes-version", KUBERNETES_VERSION.substring(1),
                "-schema-location", builtIn + "/{{ .ResourceKind }}{{ .KindSuffix }}.json",
                "-schema-location", crdSchemas + "/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json"));
        manifests.forEach(m -> command.add(m.toString()));
        return K8sTools.run(Duration.ofMinutes(3), command);
    }

    @Test
    void everyOverlayIsValidAgainstTheBuiltInAndOperatorSchemas() {
        for (Path overlay : K8sTools.overlays()) {
            Path manifests = K8sTools.build(overlay);
            int objects = K8sTools.objects(manifests).size();
            K8sTools.Result result = kubeconform(List.of(manifests));
            assertThat(result.status()).as(result.output()).isZero();
            assertThat(result.output()).as(overlay.getFileName().toString())
                    .contains("Valid: " + objects + ", Invalid: 0, Errors: 0, Skipped: 0");
        }
    }

    @Test
    void aMisspeltFieldFailsInABuiltInKindAndInAnOperatorKind() throws IOException {
        Path broken = K8sTools.TARGET.resolve("broken.yaml");
        Files.writeString(broken, """
                apiVersion: v1
                kind: Service
                metadata:
                  name: broken
                spec:
                  selector: {app: x}
                  portz:
                    - port: 80
                ---
                apiVersion: monitoring.coreos.com/v1
                kind: ServiceMonitor
                metadata:
                  name: broken
                spec:
                  selector: {matchLabels: {app: x}}
                  endpointz:
                    - port: http
                """);
        K8sTools.Result result = kubeconform(List.of(broken));
        assertThat(result.status()).as(result.output()).isNotZero();
        assertThat(result.output()).contains("Service broken is invalid").contains("ServiceMonitor broken is invalid")
                .contains("Invalid: 2");
    }
}
