package org.brokerapp.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Kubernetes overlays and Terraform describe one deployment: each overlay, built from the
 * component {@code k8s/bin/from-terraform} writes from the plan's outputs ({@link TerraformHandoff}),
 * agrees with what Terraform builds. Each test names the defect it would have caught.
 */
class TerraformAgreementIT {

    static final Map<String, List<ObjectNode>> BUILT = new TreeMap<>();

    static List<ObjectNode> objects(String region) {
        return BUILT.computeIfAbsent(region, r -> K8sTools.objects(K8sTools.build(K8sTools.K8S.resolve("overlays").resolve(r))));
    }

    static List<String> regions() {
        List<String> regions = new ArrayList<>();
        TerraformHandoff.written().path("kubernetes").path("value").propertyNames().forEach(regions::add);
        return regions;
    }

    /** Six objects (K8ssandraCluster, Elasticsearch, KafkaUser, ServiceMonitor, PrometheusRule, a NetworkPolicy) landed in default. */
    @Test
    void everyObjectLivesInTheNamespaceTheDeploymentNames() {
        for (String region : regions()) {
            String namespace = TerraformHandoff.kubernetes(region).path("namespace").asString();
            for (ObjectNode object : objects(region)) {
                String where = region + ": " + object.path("kind").asString() + " " + object.path("metadata").path("name").asString();
                if (object.path("kind").asString().equals("Namespace")) {
                    assertThat(object.path("metadata").path("name").asString()).as(where).isEqualTo(namespace);
                } else {
                    assertThat(object.path("metadata").path("namespace").asString()).as(where).isEqualTo(namespace);
                }
            }
        }
    }

    /** The load balancers forwarded to NodePort 30080 while the broker Service was a ClusterIP. */
    @Test
    void theBrokerServiceIsTheNodePortTheLoadBalancersTarget() {
        for (String region : regions()) {
            ObjectNode service = K8sTools.one(objects(region), "Service", "broker-service");
            assertThat(service.path("spec").path("type").asString()).as(region).isEqualTo("NodePort");
            assertThat(service.path("spec").path("ports").get(0).path("nodePort").asInt()).as(region)
                    .isEqualTo(TerraformHandoff.kubernetes(region).path("broker_node_port").asInt());
            assertThat(K8sTools.ofKind(objects(region), "Service")).as("no Service that needs a controller nothing installs")
                    .noneMatch(s -> s.path("spec").path("type").asString().equals("LoadBalancer"));
        }
    }

    /** Peers were called at names in a zone nothing created. */
    @Test
    void peersAreCalledByTheNamesTheRootsPrivateZoneHolds() {
        for (String region : regions()) {
            JsonNode json = JsonMapper.builder().build().readTree(config(region).path("SPRING_APPLICATION_JSON").asString());
            Map<String, String> peers = new TreeMap<>();
            json.path("broker").path("routing").path("peers").properties().forEach(e -> peers.put(e.getKey(), e.getValue().asString()));
            Map<String, String> expected = new TreeMap<>();
            for (String peer : regions()) {
                if (!peer.equals(region)) {
                    expected.put(peer, "http://" + TerraformHandoff.kubernetes(peer).path("peer_dns_name").asString() + ":8080");
                }
            }
            assertThat(peers).as(region).isEqualTo(expected).isNotEmpty();
        }
    }

    /** The broker's Kafka password was in a Secret the User Operator never wrote: the broker could not start. */
    @Test
    void everySecretAndConfigMapAPodNamesExistsWithTheKeysItReads() {
        for (String region : regions()) {
            List<ObjectNode> objects = objects(region);
            for (ObjectNode deployment : K8sTools.ofKind(objects, "Deployment")) {
                JsonNode pod = deployment.path("spec").path("template").path("spec");
                String where = region + "/" + deployment.path("metadata").path("name").asString();
                for (JsonNode container : pod.path("containers")) {
                    for (JsonNode env : container.path("env")) {
                        JsonNode secret = env.path("valueFrom").path("secretKeyRef");
                        if (!secret.isMissingNode() && !secret.path("optional").asBoolean(false)) {
                            assertThat(keys(objects, "Secret", secret.path("name").asString())).as(where + " env " + env.path("name").asString())
                                    .contains(secret.path("key").asString());
                        }
                    }
                    for (JsonNode from : container.path("envFrom")) {
                        if (from.has("configMapRef")) {
                            assertThat(keys(objects, "ConfigMap", from.path("configMapRef").path("name").asString())).as(where).isNotEmpty();
                        }
                    }
                }
                for (JsonNode volume : pod.path("volumes")) {
                    for (String kind : List.of("secret", "configMap")) {
                        JsonNode source = volume.path(kind);
                        if (source.isMissingNode() || source.path("optional").asBoolean(false)) {
                            continue;
                        }
                        String name = kind.equals("secret") ? source.path("secretName").asString() : source.path("name").asString();
                        Set<String> keys = keys(objects, kind.equals("secret") ? "Secret" : "ConfigMap", name);
                        assertThat(keys).as(where + " volume " + volume.path("name").asString()).isNotEmpty();
                        for (JsonNode item : source.path("items")) {
                            assertThat(keys).as(where + " volume " + volume.path("name").asString()).contains(item.path("key").asString());
                        }
                    }
                }
            }
        }
    }

    /** The manifests asked about 18 vCPU and 67 GiB per region of two t3.medium nodes. */
    @Test
    void theWorkloadAtTheAutoscalersMaximumFitsTheNodeGroup() {
        for (String region : regions()) {
            JsonNode group = TerraformHandoff.kubernetes(region).path("node_group");
            int nodes = group.path("desired_size").asInt();
            JsonNode allocatable = group.path("allocatable");
            JsonNode overhead = group.path("overhead");
            long cpu = nodes * (allocatable.path("cpu_millicores").asLong() - overhead.path("per_node").path("cpu_millicores").asLong())
                    - overhead.path("per_cluster").path("cpu_millicores").asLong();
            long memory = nodes * (allocatable.path("memory_mib").asLong() - overhead.path("per_node").path("memory_mib").asLong())
                    - overhead.path("per_cluster").path("memory_mib").asLong();
            long cpuAsked = 0;
            long memoryAsked = 0;
            long pods = 0;
            for (ObjectNode deployment : K8sTools.ofKind(objects(region), "Deployment")) {
                int replicas = maxReplicas(objects(region), deployment);
                JsonNode containers = deployment.path("spec").path("template").path("spec").path("containers");
                for (JsonNode container : containers) {
                    JsonNode requests = container.path("resources").path("requests");
                    long podCpu = Quantities.millicores(requests.path("cpu").asString());
                    long podMemory = Quantities.mebibytes(requests.path("memory").asString());
                    assertThat(podCpu).as(region + ": one pod fits one node").isLessThanOrEqualTo(allocatable.path("cpu_millicores").asLong()
                            - overhead.path("per_node").path("cpu_millicores").asLong());
                    cpuAsked += replicas * podCpu;
                    memoryAsked += replicas * podMemory;
                }
                pods += replicas;
            }
            assertThat(cpuAsked).as(region + ": CPU requested (millicores) at the autoscalers' maximum vs the node group's " + nodes + " x "
                    + group.path("instance_type").asString()).isLessThanOrEqualTo(cpu);
            assertThat(memoryAsked).as(region + ": memory requested (MiB)").isLessThanOrEqualTo(memory);
            assertThat(pods).isLessThanOrEqualTo((long) nodes * allocatable.path("pods").asLong());
            assertThat(unplaced(region, group)).as(region + ": pods that fit no node at the autoscalers' maximum (largest first)").isEmpty();
        }
    }

    /** Places every pod at the autoscalers' maximum, largest CPU request first, on the first node with room: what is left over. */
    static List<String> unplaced(String region, JsonNode group) {
        JsonNode allocatable = group.path("allocatable");
        JsonNode perNode = group.path("overhead").path("per_node");
        int nodes = group.path("desired_size").asInt();
        long[] cpu = new long[nodes];
        long[] memory = new long[nodes];
        java.util.Arrays.fill(cpu, allocatable.path("cpu_millicores").asLong() - perNode.path("cpu_millicores").asLong());
        java.util.Arrays.fill(memory, allocatable.path("memory_mib").asLong() - perNode.path("memory_mib").asLong());
        record Pod(String name, long cpu, long memory) {
        }
        List<Pod> pods = new ArrayList<>();
        JsonNode perCluster = group.path("overhead").path("per_cluster");
        for (int i = 0; i < 2; i++) { // CoreDNS's two replicas
            pods.add(new Pod("coredns", perCluster.path("cpu_millicores").asLong() / 2, perCluster.path("memory_mib").asLong() / 2));
        }
        for (ObjectNode deployment : K8sTools.ofKind(objects(region), "Deployment")) {
            long podCpu = 0;
            long podMemory = 0;
            for (JsonNode container : deployment.path("spec").path("template").path("spec").path("containers")) {
                podCpu += Quantities.millicores(container.path("resources").path("requests").path("cpu").asString());
                podMemory += Quantities.mebibytes(container.path("resources").path("requests").path("memory").asString());
            }
            for (int i = 0; i < maxReplicas(objects(region), deployment); i++) {
                pods.add(new Pod(deployment.path("metadata").path("name").asString(), podCpu, podMemory));
            }
        }
        pods.sort(java.util.Comparator.comparingLong(Pod::cpu).reversed());
        List<String> left = new ArrayList<>();
        for (Pod pod : pods) {
            int node = 0;
            while (node < nodes && (cpu[node] < pod.cpu() || memory[node] < pod.memory())) {
                node++;
            }
            if (node == nodes) {
                left.add(pod.name());
            } else {
                cpu[node] -= pod.cpu();
                memory[node] -= pod.memory();
            }
        }
        return left;
    }

    /** Every claim named storageClassName gp3, which nothing created (no EBS CSI driver, no StorageClass). */
    @Test
    void everyVolumeClaimNamesAStorageClassTheTreesCreate() {
        for (String region : regions()) {
            Set<String> created = new HashSet<>();
            K8sTools.ofKind(objects(region), "StorageClass").forEach(c -> created.add(c.path("metadata").path("name").asString()));
            for (ObjectNode object : objects(region)) {
                for (String named : storageClassNames(object, new ArrayList<>())) {
                    assertThat(created).as(region + ": " + object.path("kind").asString() + " " + object.path("metadata").path("name").asString()
                            + " names storage class " + named).contains(named);
                }
            }
        }
    }

    /** Images pointed at docker.io/brokerapp by a mutable tag. */
    @Test
    void everyImageIsTheRegistrysByDigest() {
        for (String region : regions()) {
            for (ObjectNode deployment : K8sTools.ofKind(objects(region), "Deployment")) {
                for (JsonNode container : deployment.path("spec").path("template").path("spec").path("containers")) {
                    assertThat(container.path("image").asString()).as(region)
                            .startsWith(TerraformHandoff.EXAMPLE_REGISTRY + "/").endsWith("@" + TerraformHandoff.EXAMPLE_DIGEST);
                }
            }
        }
    }

    /** RF 2 on 2 nodes: the brokers' keyspace must have the replication of the cluster Terraform builds (3 x 3). */
    @Test
    void theBrokersRegionsModelHasTheClustersReplication() throws IOException {
        String replication = TerraformHandoff.written().path("keyspace_replication").path("value").asString();
        assertThat(replication).contains("'us-east-1': 3").contains("'ap-southeast-2': 3");
        for (String region : regions()) {
            String yaml = K8sTools.one(objects(region), "ConfigMap", "broker-regions").path("data").path("regions.yaml").asString();
            Path file = Files.createTempFile("regions", ".yaml");
            Files.writeString(file, yaml);
            RegionsModel model = RegionsFile.load(file);
            Files.delete(file);
            assertThat(model.networkTopologyReplication()).as(region).isEqualTo(replication);
            assertThat(config(region).path("BROKER_REGIONS_FILE").asString()).isEqualTo("/etc/broker/regions/regions.yaml");
        }
    }

    /** The brokers reach the servers Terraform places, at the addresses it fixes. */
    @Test
    void theBrokersAddressesAreThePlans() {
        for (String region : regions()) {
            JsonNode plan = TerraformHandoff.written().path("regions").path("value").path(region);
            List<String> contactPoints = new ArrayList<>();
            plan.path("cassandra").path("ips").forEach(ip -> contactPoints.add(ip.asString() + ":9042"));
            assertThat(config(region).path("SPRING_CASSANDRA_CONTACT_POINTS").asString()).isEqualTo(String.join(",", contactPoints));
            assertThat(contactPoints).hasSize(3);
            assertThat(config(region).path("BROKER_KAFKA_BOOTSTRAP_SERVERS").asString()).isEqualTo(plan.path("kafka_ip").asString() + ":9092");
            assertThat(config(region).path("SPRING_APPLICATION_JSON").asString())
                    .contains("\"" + region + "\":\"https://" + plan.path("elasticsearch_ip").asString() + ":9200\"");
        }
    }

    static JsonNode config(String region) {
        return K8sTools.one(objects(region), "ConfigMap", "broker-config").path("data");
    }

    static Set<String> keys(List<ObjectNode> objects, String kind, String name) {
        Set<String> keys = new HashSet<>();
        K8sTools.ofKind(objects, kind).stream().filter(o -> o.path("metadata").path("name").asString().equals(name))
                .forEach(o -> {
                    o.path("data").propertyNames().forEach(keys::add);
                    o.path("stringData").propertyNames().forEach(keys::add);
                });
        return keys;
    }

    /** The HorizontalPodAutoscaler's maximum for a Deployment it scales, else the Deployment's replicas. */
    static int maxReplicas(List<ObjectNode> objects, ObjectNode deployment) {
        String name = deployment.path("metadata").path("name").asString();
        return K8sTools.ofKind(objects, "HorizontalPodAutoscaler").stream()
                .filter(h -> h.path("spec").path("scaleTargetRef").path("name").asString().equals(name))
                .map(h -> h.path("spec").path("maxReplicas").asInt()).findFirst()
                .orElse(deployment.path("spec").path("replicas").asInt(1));
    }

    /** Every storageClassName anywhere in an object: claims, claim templates, operators' storage specs. */
    static List<String> storageClassNames(JsonNode node, List<String> found) {
        if (node.isObject()) {
            node.properties().forEach(e -> {
                if (e.getKey().equals("storageClassName") || e.getKey().equals("class") && node.has("size")) {
                    found.add(e.getValue().asString());
                } else {
                    storageClassNames(e.getValue(), found);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> storageClassNames(n, found));
        }
        return found;
    }
}
