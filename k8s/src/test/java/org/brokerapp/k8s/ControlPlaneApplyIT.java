package org.brokerapp.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code kubectl apply -k} of each overlay, with the component Terraform's outputs wrote, to a real control plane
 * (kube-apiserver, controller manager, scheduler: {@link ControlPlane}) whose nodes are simulated by
 * kwok at the size of Terraform's node group for the region: as many nodes, each offering the
 * instance type's allocatable less what the EKS add-ons take, with CoreDNS's two replicas placed
 * first. Then every Deployment's pods must be scheduled and ready and every Service must have ready
 * endpoints; and one broker more than the autoscaler's maximum must stay Pending, which shows the
 * scheduler really holds the pods to the nodes' size. Figures (objects, pods, seconds) go to
 * target/control-plane-apply.txt.
 */
class ControlPlaneApplyIT {

    static final Path FIGURES = K8sTools.TARGET.resolve("control-plane-apply.txt");

    static List<String> regions() {
        return K8sTools.overlays().stream().map(p -> p.getFileName().toString()).toList();
    }

    @ParameterizedTest
    @MethodSource("regions")
    void theOverlayRunsOnTheNodeGroupTerraformBuilds(String region) throws Exception {
        Path manifests = K8sTools.build(K8sTools.K8S.resolve("overlays").resolve(region));
        JsonNode group = TerraformHandoff.kubernetes(region).path("node_group");
        try (ControlPlane cluster = ControlPlane.apiServer(K8sTools.TARGET.resolve("control-plane-" + region)).withControllers()) {
            int nodes = group.path("desired_size").asInt();
            Path nodeFile = cluster.dir.resolve("nodes.yaml");
            Files.writeString(nodeFile, nodes(group, nodes) + coreDns(group));
            ok(cluster.kubectl(Duration.ofMinutes(1), "apply", "-f", nodeFile.toString()));
            ok(cluster.kubectl(Duration.ofMinutes(2), "wait", "--for=condition=Ready", "node", "--all", "--timeout=90s"));
            ok(cluster.kubectl(Duration.ofMinutes(3), "wait", "--for=condition=Available", "deployment/coredns", "-n", "kube-system",
                    "--timeout=150s"));

            long start = System.nanoTime();
            // as the README deploys it: kubectl's own kustomize, on the overlay with its generated component
            K8sTools.Result applied = cluster.kubectl(Duration.ofMinutes(2), "apply", "--server-side", "-k",
                    K8sTools.K8S.resolve("overlays").resolve(region).toString());
            ok(applied);
            long objects = applied.output().lines().filter(l -> l.endsWith(" serverside-applied")).count();
            assertThat(objects).as(applied.output()).isEqualTo(K8sTools.objects(manifests).size());
            K8sTools.Result available = cluster.kubectl(Duration.ofMinutes(4), "wait", "--for=condition=Available", "deployment", "--all",
                    "-n", "brokerapp", "--timeout=120s");
            assertThat(available.status()).as(available.output() + "\n" + cluster.kubectl(Duration.ofMinutes(1), "get", "pods,events", "-A",
                    "-o", "wide").output()).isZero();
            JsonNode pods = json(cluster.kubectl(Duration.ofMinutes(1), "get", "pods", "-n", "brokerapp", "-o", "json"));
            List<String> notReady = new ArrayList<>();
            for (JsonNode pod : pods.path("items")) {
                boolean scheduled = condition(pod, "PodScheduled") && !pod.path("spec").path("nodeName").asString().isEmpty();
                if (!scheduled || !condition(pod, "Ready")) {
                    notReady.add(pod.path("metadata").path("name").asString());
                }
            }
            assertThat(notReady).as("pods not scheduled or not ready").isEmpty();
            int running = pods.path("items").size();
            assertThat(running).isGreaterThanOrEqualTo(3);
            assertEveryServiceHasReadyEndpoints(cluster);
            double seconds = (System.nanoTime() - start) / 1e9;

            // the autoscaler's maximum fits; one broker more does not: the nodes' size is real
            int max = TerraformAgreementIT.maxReplicas(K8sTools.objects(manifests),
                    K8sTools.one(K8sTools.objects(manifests), "Deployment", "broker-service"));
            ok(cluster.kubectl(Duration.ofMinutes(1), "scale", "deployment/broker-service", "-n", "brokerapp", "--replicas=" + max));
            ok(cluster.kubectl(Duration.ofMinutes(4), "wait", "--for=condition=Available", "deployment/broker-service", "-n", "brokerapp",
                    "--timeout=200s"));
            ok(cluster.kubectl(Duration.ofMinutes(4), "rollout", "status", "deployment/broker-service", "-n", "brokerapp", "--timeout=200s"));
            // the autoscaler holds the Deployment to its maximum: out of the way, so the scheduler is what refuses
            ok(cluster.kubectl(Duration.ofMinutes(1), "delete", "horizontalpodautoscaler/broker-service", "-n", "brokerapp"));
            ok(cluster.kubectl(Duration.ofMinutes(1), "scale", "deployment/broker-service", "-n", "brokerapp", "--replicas=" + (max + 1)));
            String pending = "";
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (pending.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(1000);
                K8sTools.Result unschedulable = cluster.kubectl(Duration.ofSeconds(30), "get", "pods", "-n", "brokerapp",
                        "--field-selector=status.phase=Pending", "-o", "jsonpath={.items[*].status.conditions[?(@.type==\"PodScheduled\")].reason}");
                pending = unschedulable.output().trim();
            }
            assertThat(pending).as("broker " + (max + 1) + " finds no node").isEqualTo("Unschedulable");
            cluster.assertAlive();

            String figure = "%s: %d objects applied, %d pods scheduled and ready on %d simulated %s nodes in %.1f s; broker %d unschedulable%n"
                    .formatted(region, objects, running, nodes, group.path("instance_type").asString(), seconds, max + 1);
            System.out.print("ControlPlaneApplyIT: " + figure);
            Files.writeString(FIGURES, figure, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }

    static void assertEveryServiceHasReadyEndpoints(ControlPlane cluster) throws InterruptedException {
        List<String> without = List.of();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        do {
            JsonNode services = json(cluster.kubectl(Duration.ofMinutes(1), "get", "services", "-n", "brokerapp", "-o", "json"));
            JsonNode slices = json(cluster.kubectl(Duration.ofMinutes(1), "get", "endpointslices", "-n", "brokerapp", "-o", "json"));
            List<String> missing = new ArrayList<>();
            for (JsonNode service : services.path("items")) {
                String name = service.path("metadata").path("name").asString();
                boolean ready = false;
                for (JsonNode slice : slices.path("items")) {
                    if (name.equals(slice.path("metadata").path("labels").path("kubernetes.io/service-name").asString())) {
                        for (JsonNode endpoint : slice.path("endpoints")) {
                            ready |= endpoint.path("conditions").path("ready").asBoolean(false);
                        }
                    }
                }
                if (!ready) {
                    missing.add(name);
                }
            }
            without = missing;
            if (without.isEmpty()) {
                return;
            }
            Thread.sleep(1000);
        } while (System.nanoTime() < deadline);
        assertThat(without).as("Services without a ready endpoint").isEmpty();
    }

    /** Nodes like the node group's: zones a, b, c in turn; capacity the instance type's allocatable less the add-ons' per-node requests. */
    static String nodes(JsonNode group, int count) {
        JsonNode allocatable = group.path("allocatable");
        JsonNode perNode = group.path("overhead").path("per_node");
        long cpu = allocatable.path("cpu_millicores").asLong() - perNode.path("cpu_millicores").asLong();
        long memory = allocatable.path("memory_mib").asLong() - perNode.path("memory_mib").asLong();
        StringBuilder yaml = new StringBuilder();
        for (int i = 0; i < count; i++) {
            yaml.append("""
                    apiVersion: v1
                    kind: Node
                    metadata:
                      name: node-%d
                      annotations: {%s: fake}
                      labels:
                        kubernetes.io/hostname: node-%d
                        kubernetes.io/os: linux
                        node.kubernetes.io/instance-type: %s
                        topology.kubernetes.io/zone: zone-%c
                        type: kwok
                    status:
                      allocatable: {cpu: %dm, memory: %dMi, pods: "%d"}
                      capacity: {cpu: %dm, memory: %dMi, pods: "%d"}
                    ---
                    """.formatted(i, ControlPlane.FAKE_NODE_ANNOTATION, i, group.path("instance_type").asString(), (char) ('a' + i % 3),
                    cpu, memory, allocatable.path("pods").asInt(), cpu, memory, allocatable.path("pods").asInt()));
        }
        return yaml.toString();
    }

    /** CoreDNS as EKS runs it: two replicas requesting the plan's per-cluster overhead between them. */
    static String coreDns(JsonNode group) {
        JsonNode perCluster = group.path("overhead").path("per_cluster");
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: coredns, namespace: kube-system}
                spec:
                  replicas: 2
                  selector: {matchLabels: {k8s-app: kube-dns}}
                  template:
                    metadata: {labels: {k8s-app: kube-dns}}
                    spec:
                      containers:
                        - name: coredns
                          image: coredns/coredns:1.11.3
                          resources: {requests: {cpu: %dm, memory: %dMi}}
                """.formatted(perCluster.path("cpu_millicores").asLong() / 2, perCluster.path("memory_mib").asLong() / 2);
    }

    static boolean condition(JsonNode pod, String type) {
        for (JsonNode condition : pod.path("status").path("conditions")) {
            if (type.equals(condition.path("type").asString())) {
                return "True".equals(condition.path("status").asString());
            }
        }
        return false;
    }

    static JsonNode json(K8sTools.Result result) {
        ok(result);
        return K8sTools.YAML.readTree(result.output());
    }

    static void ok(K8sTools.Result result) {
        assertThat(result.status()).as(result.output()).isZero();
    }

    static {
        try {
            Files.createDirectories(K8sTools.TARGET);
            Files.deleteIfExists(FIGURES);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
