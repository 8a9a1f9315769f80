package org.brokerapp.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

import org.brokerapp.regions.InvalidRegionsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's answers to mistakes: one line naming the problem, before anything starts. */
class StackCliTests {

    @TempDir
    Path workDir;

    @Test
    void anUnknownCommandIsNamed() {
        assertThatThrownBy(() -> StackCli.run(new String[] {"launch"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown command 'launch' (try: up, down, status, cut, heal)");
    }

    @Test
    void anUnknownOptionOrAMissingValueIsNamed() {
        assertThatThrownBy(() -> StackCli.run(new String[] {"up", "--turbo"})).hasMessage("unknown option --turbo");
        assertThatThrownBy(() -> StackCli.run(new String[] {"up", "--nodes-per-dc"})).hasMessage("--nodes-per-dc needs a value");
        assertThatThrownBy(() -> StackCli.run(new String[] {"up", "--nodes-per-dc", "two"})).hasMessage("--nodes-per-dc needs a whole number, was 'two'");
    }

    @Test
    void tooManyNodesPerDataCenterIsRefusedBeforeAnythingStarts() {
        assertThatThrownBy(() -> StackCli.run(new String[] {"up", "--work-dir", workDir.toString(), "--nodes-per-dc", "4"}))
                .isInstanceOf(InvalidRegionsException.class).hasMessageContaining("cassandra-nodes must be 1 to 3");
    }

    @Test
    void cutNeedsARunningStackAndSaysSo() {
        assertThatThrownBy(() -> StackCli.run(new String[] {"cut", "ap-southeast-2", "--work-dir", workDir.toString()}))
                .isInstanceOf(StackException.class).hasMessageStartingWith("no stack is running from " + workDir);
    }

    @Test
    void downWithoutAStackIsAHarmlessNoOp() {
        assertThat(StackCli.run(new String[] {"down", "--work-dir", workDir.toString()})).isZero();
    }

    @Test
    void aTakenPortIsNamedWithWhatToDo() throws IOException {
        StackSettings settings = StackSettings.defaults(workDir, 7).withNodesPerDc(OptionalInt.of(1));
        StackLayout layout = StackLayout.of(settings);
        CassandraNode first = layout.cassandra().get(0);
        try (ServerSocket squatter = new ServerSocket()) {
            squatter.bind(new InetSocketAddress(first.address(), AddressPlan.CQL_PORT));

            assertThatThrownBy(() -> Preflight.requirePortsFree(layout))
                    .isInstanceOf(StackException.class)
                    .hasMessageStartingWith("port " + first.address() + ":9042 is taken")
                    .hasMessageContaining("stack down");
        }
    }

    @Test
    void eachNodeGetsAConfigurationNamingItsDataCenterAndItsWanFace() throws IOException {
        StackLayout layout = StackLayout.of(StackSettings.defaults(workDir, 0));
        CassandraNode node = layout.cassandraIn("ap-southeast-2").get(1);

        node.writeConfiguration();

        assertThat(Files.readString(node.dir().resolve("conf/cassandra-rackdc.properties"))).contains("dc=ap-southeast-2", "prefer_local=true");
        assertThat(Files.readString(node.dir().resolve("conf/cassandra.yaml")))
                .contains("listen_address: 127.0.2.12", "broadcast_address: 127.1.2.12", "seeds: \"127.1.1.11:7000,127.1.2.11:7000\"",
                        "endpoint_snitch: GossipingPropertyFileSnitch");
        assertThat(layout.oneWayLatencyInto("ap-southeast-2").toMillis()).isEqualTo(115);
        assertThat(layout.latencyIsExact()).isTrue();
    }

    @Test
    void eachRegionGetsAnElasticsearchNodeOfItsOwnUnlessSearchIsLeftOut() throws IOException {
        StackLayout layout = StackLayout.of(StackSettings.defaults(workDir, 0));
        ElasticsearchNode node = layout.elasticsearchIn("ap-southeast-2");

        node.writeConfiguration();

        assertThat(node.url()).isEqualTo("http://127.0.2.4:9200");
        assertThat(Files.readString(node.dir().resolve("config/elasticsearch.yml")))
                .contains("cluster.name: brokerapp-ap-southeast-2", "network.host: 127.0.2.4", "discovery.type: single-node",
                        "cluster.routing.allocation.disk.threshold_enabled: false");
        assertThat(Files.readString(node.dir().resolve("config/log4j2.properties"))).contains(node.serverLog().toString());
        assertThat(StackCli.Options.parse(new String[]{"--no-search"}).settings().search()).isFalse();
        assertThat(StackCli.Options.parse(new String[]{"--no-search"}).layoutArgs()).contains("--no-search");
        assertThat(StackCli.Options.parse(new String[0]).settings().search()).isTrue();
        assertThat(new AddressPlan(7).elasticsearchAddress(2)).isEqualTo("127.14.2.4");
    }
}
