package org.brokerapp.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl apply --dry-run=server} of every overlay against a real kube-apiserver on a real etcd
 * ({@link ControlPlane}), with the operators' CRDs from k8s/crds installed first. The server
 * runs every validation and admission step short of storing, including the CRDs' OpenAPI schemas.
 * No kubelet, scheduler or controller: nothing is run, only accepted or refused.
 */
class ServerDryRunIT {

    static ControlPlane controlPlane;

    @BeforeAll
    static void startApiServer() throws Exception {
        controlPlane = ControlPlane.apiServer(K8sTools.TARGET.resolve("apiserver"));
        // a server-side dry run of a Namespace creates nothing, so the namespace the objects go to must exist
        K8sTools.Result namespace = kubectl(Duration.ofSeconds(30), "create", "namespace", "brokerapp");
        assertThat(namespace.status()).as(namespace.output()).isZero();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (controlPlane != null) {
            controlPlane.close();
        }
    }

    static K8sTools.Result kubectl(Duration timeout, String... args) {
        return controlPlane.kubectl(timeout, args);
    }

    @Test
    void everyOverlayIsAcceptedByTheApiServer() {
        for (Path overlay : K8sTools.overlays()) {
            Path manifests = K8sTools.build(overlay);
            int objects = K8sTools.objects(manifests).size();
            K8sTools.Result result = kubectl(Duration.ofMinutes(2), "apply", "--dry-run=server", "-f", manifests.toString());
            assertThat(result.status()).as(overlay.getFileName() + ": " + result.output()).isZero();
            long accepted = result.output().lines().filter(l -> l.endsWith("(server dry run)")).count();
            assertThat(accepted).as(result.output()).isEqualTo(objects);
        }
    }

    @Test
    void theServerRefusesWhatTheSchemasForbid() throws IOException {
        Path broken = K8sTools.TARGET.resolve("broken-for-server.yaml");
        Files.writeString(broken, """
                apiVersion: monitoring.coreos.com/v1
                kind: ServiceMonitor
                metadata: {name: broken, namespace: brokerapp}
                spec:
                  endpoints: "every 15 s"
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: broken, namespace: brokerapp}
                spec:
                  replicas: -1
                  selector: {matchLabels: {app: broken}}
                  template:
                    metadata: {labels: {app: broken}}
                    spec:
                      containers: [{name: c, image: x}]
                """);
        K8sTools.Result result = kubectl(Duration.ofMinutes(1), "apply", "--dry-run=server", "-f", broken.toString());
        assertThat(result.status()).isNotZero();
        assertThat(result.output()).contains("ServiceMonitor.monitoring.coreos.com \"broken\" is invalid")
                .contains("spec.endpoints").contains("Deployment.apps \"broken\" is invalid")
                .contains("spec.replicas");
    }
}
