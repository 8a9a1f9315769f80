package org.brokerapp.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.brokerapp.k8s.K8sTools.K8S;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Every overlay builds, and what it builds keeps the house rules for workloads. */
class KustomizeBuildIT {

    @Test
    void everyOverlayBuilds() {
        assertThat(K8sTools.overlays()).extracting(p -> p.getFileName().toString())
                .containsExactlyInAnyOrder("us-east-1", "ap-southeast-2");
        for (Path overlay : K8sTools.overlays()) {
            List<ObjectNode> objects = K8sTools.objects(K8sTools.build(overlay));
            assertThat(objects).extracting(o -> o.path("kind").asString())
                    .as(overlay.getFileName().toString())
                    .contains("Namespace", "ServiceAccount", "ConfigMap", "Deployment", "Service", "PodDisruptionBudget",
                            "HorizontalPodAutoscaler", "NetworkPolicy", "Secret", "ServiceMonitor", "PrometheusRule")
                    .doesNotContain("Kafka", "KafkaUser", "K8ssandraCluster", "Elasticsearch");
        }
    }

    @Test
    void noDeprecatedKustomizeFields() throws IOException {
        List<String> deprecated = List.of("commonLabels:", "patchesStrategicMerge:", "patchesJson6902:", "bases:", "vars:",
                "imageTags:");
        try (Stream<Path> files = Files.walk(K8S)) {
            for (Path kustomization : files.filter(p -> p.getFileName().toString().equals("kustomization.yaml"))
                    .filter(p -> !p.startsWith(K8S.resolve("target"))).toList()) {
                List<String> lines = Files.readAllLines(kustomization);
                for (String field : deprecated) {
                    assertThat(lines).as(K8S.relativize(kustomization) + " uses the deprecated " + field)
                            .noneMatch(line -> line.startsWith(field));
                }
            }
        }
    }

    @Test
    void workloadsRunAsNonRootWithLimitsProbesAndRecommendedLabels() {
        for (Path overlay : K8sTools.overlays()) {
            List<ObjectNode> objects = K8sTools.objects(K8sTools.build(overlay));
            for (ObjectNode deployment : K8sTools.ofKind(objects, "Deployment")) {
                String name = overlay.getFileName() + "/" + deployment.path("metadata").path("name").asString();
                JsonNode pod = deployment.path("spec").path("template");
                assertThat(pod.path("metadata").path("labels").path("app.kubernetes.io/name").asString()).as(name).isNotBlank();
                assertThat(deployment.path("metadata").path("labels").path("app.kubernetes.io/part-of").asString()).as(name)
                        .isEqualTo("brokerapp");
                assertThat(pod.path("spec").path("securityContext").path("runAsNonRoot").asBoolean()).as(name + " runAsNonRoot")
                        .isTrue();
                for (JsonNode container : pod.path("spec").path("containers")) {
                    JsonNode limits = container.path("resources").path("limits");
                    assertThat(limits.path("cpu").isMissingNode() || limits.path("memory").isMissingNode())
                            .as(name + " has cpu and memory limits").isFalse();
                    assertThat(container.path("securityContext").path("allowPrivilegeEscalation").asBoolean(true))
                            .as(name + " allowPrivilegeEscalation").isFalse();
                }
            }
            ObjectNode broker = K8sTools.one(objects, "Deployment", "broker-service");
            JsonNode container = broker.path("spec").path("template").path("spec").path("containers").get(0);
            assertThat(container.path("livenessProbe").path("httpGet").path("path").asString()).isEqualTo("/actuator/health/liveness");
            assertThat(container.path("readinessProbe").path("httpGet").path("path").asString()).isEqualTo("/actuator/health/readiness");
        }
    }
}
