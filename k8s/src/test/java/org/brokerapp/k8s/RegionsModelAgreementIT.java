package org.brokerapp.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.regions.Region;
import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The overlays say what infra/regions.yaml says: one overlay per region, each naming its region, its
 * Cassandra DC, its peers and the ports the local stack uses for the same servers (AddressPlan).
 */
class RegionsModelAgreementIT {

    static final RegionsModel MODEL = RegionsFile.load(K8sTools.REPO.resolve("infra/regions.yaml"));

    @Test
    void oneOverlayPerRegion() {
        assertThat(K8sTools.overlays()).extracting(p -> p.getFileName().toString())
                .containsExactlyInAnyOrderElementsOf(MODEL.names());
    }

    @Test
    void eachOverlayNamesItsRegionDatacenterAndPorts() {
        for (Region region : MODEL.regions()) {
            List<ObjectNode> objects = K8sTools.objects(K8sTools.build(K8sTools.K8S.resolve("overlays").resolve(region.name())));
            String where = "overlay " + region.name();
            JsonNode config = K8sTools.one(objects, "ConfigMap", "broker-config").path("data");
            assertThat(config.path("BROKER_REGION").asString()).as(where).isEqualTo(region.name());
            assertThat(config.path("SPRING_CASSANDRA_LOCAL_DATACENTER").asString()).as(where).isEqualTo(region.datacenter());
            assertThat(config.path("SERVER_PORT").asString()).as(where).isEqualTo(Integer.toString(AddressPlan.BROKER_PORT));

            // every object carries the region's label
            assertThat(objects).as(where).allSatisfy(o ->
                    assertThat(o.path("metadata").path("labels").path("brokerapp.org/region").asString()).isEqualTo(region.name()));

            // the peers are exactly the other regions, on the broker port
            JsonNode peers = K8sTools.YAML.readTree(config.path("SPRING_APPLICATION_JSON").asString())
                    .path("broker").path("routing").path("peers");
            List<String> others = new ArrayList<>(MODEL.names());
            others.remove(region.name());
            assertThat(peers.propertyNames()).as(where + " peers").containsExactlyInAnyOrderElementsOf(others);
            for (String other : others) {
                assertThat(peers.path(other).asString()).as(where + " peer " + other)
                        .isEqualTo("http://broker." + other + ".brokerapp.internal:" + AddressPlan.BROKER_PORT);
            }

            // the same ports wherever they appear: container, Service, Kafka listener, network policy
            JsonNode container = K8sTools.one(objects, "Deployment", "broker-service")
                    .path("spec").path("template").path("spec").path("containers").get(0);
            assertThat(container.path("ports").get(0).path("containerPort").asInt()).as(where).isEqualTo(AddressPlan.BROKER_PORT);
            assertThat(K8sTools.one(objects, "Service", "broker-service").path("spec").path("ports").get(0).path("port").asInt())
                    .as(where).isEqualTo(AddressPlan.BROKER_PORT);
            List<Integer> egressPorts = new ArrayList<>();
            for (JsonNode rule : K8sTools.one(objects, "NetworkPolicy", "broker-service-egress").path("spec").path("egress")) {
                rule.path("ports").forEach(p -> egressPorts.add(p.path("port").asInt()));
            }
            assertThat(egressPorts).as(where + " broker egress")
                    .contains(AddressPlan.CQL_PORT, AddressPlan.KAFKA_PORT, AddressPlan.BROKER_PORT);
        }
    }
}
