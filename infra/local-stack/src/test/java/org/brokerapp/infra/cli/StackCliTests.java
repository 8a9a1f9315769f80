package org.brokerapp.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.ElasticsearchNode;
import org.brokerapp.infra.stack.CassandraAuth;
import org.brokerapp.infra.stack.Preflight;
import org.brokerapp.infra.stack.StackLayout;
import org.brokerapp.infra.stack.StackSettings;
import org.brokerapp.infra.tls.StackTls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The launcher's answers to mistakes: one line naming the problem (exit 2 for usage, 1 for a failure), before anything starts. */
class StackCliTests {

    @TempDir
    Path workDir;

    @Test
    void anUnknownCommandIsOneLineAndExitTwo() {
        Run run = stack("launch");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).hasLineCount(1).startsWith("stack: Unmatched argument at index 0: 'launch'").endsWith("(see 'stack --help')\n");
    }

    @Test
    void anUnknownOptionOrAMissingOrBadValueIsOneLineAndExitTwo() {
        assertThat(stack("up", "--turbo")).isEqualTo(new Run(2, "", "stack: Unknown option: '--turbo' (see 'stack up --help')\n"));
        assertThat(stack("up", "--nodes-per-dc").err()).startsWith("stack: Missing required parameter for option '--nodes-per-dc' (N)");
        assertThat(stack("up", "--nodes-per-dc", "two").err())
                .isEqualTo("stack: Invalid value for option '--nodes-per-dc': 'two' is not an int (see 'stack up --help')\n");
        assertThat(stack("cut").err()).startsWith("stack: Missing required parameter: 'REGION'");
        assertThat(stack().exit()).isEqualTo(2);
    }

    @Test
    void bothOptionSpellingsAreTheSame() {
        Run separate = stack("down", "--work-dir", workDir.toString());
        Run joined = stack("down", "--work-dir=" + workDir);
        assertThat(joined).isEqualTo(separate);
        assertThat(joined.out()).isEqualTo("no stack is running from " + workDir + "\n");
    }

    @Test
    void versionIsTheBuildsOnStdoutAndExitZero() {
        Run version = stack("--version");
        assertThat(version.exit()).isZero();
        assertThat(version.out()).matches("stack \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n");
    }

    @Test
    void helpIsUsageOnStdoutAndExitZero() {
        Run help = stack("--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("Usage: stack", "up", "down", "status", "cut", "heal");
        assertThat(stack("up", "--help").out()).contains("--nodes-per-dc=N", "--work-dir=DIR", "--no-wan", "--detach");
    }

    @Test
    void tooManyNodesPerDataCenterIsRefusedBeforeAnythingStarts() {
        Run run = stack("up", "--work-dir", workDir.toString(), "--nodes-per-dc", "4");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).hasLineCount(1).startsWith("stack: ").contains("cassandra-nodes must be 1 to 3");
    }

    @Test
    void cutNeedsARunningStackAndSaysSo() {
        Run run = stack("cut", "ap-southeast-2", "--work-dir", workDir.toString());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("stack: no stack is running from " + workDir + " (start one with 'stack up')\n");
    }

    @Test
    void downWithoutAStackIsAHarmlessNoOp() {
        assertThat(stack("down", "--work-dir", workDir.toString()).exit()).isZero();
    }

    @Test
    void aTakenPortIsNamedWithWhatToDo() throws IOException {
        StackSettings settings = StackSettings.defaults(workDir, 9).withNodesPerDc(OptionalInt.of(1));
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

        node.writeConfiguration(Optional.empty());

        assertThat(Files.readString(node.dir().resolve("conf/cassandra-rackdc.properties"))).contains("dc=ap-southeast-2", "prefer_local=true");
        assertThat(Files.readString(node.dir().resolve("conf/cassandra.yaml")))
                .contains("listen_address: 127.0.2.12", "broadcast_address: 127.1.2.12", "seeds: \"127.1.1.11:7000,127.1.2.11:7000\"",
                        "endpoint_snitch: GossipingPropertyFileSnitch", "rpc_address: 127.0.2.12\nstorage_port: 7000")
                .doesNotContain("broadcast_rpc_address", "PasswordAuthenticator");
        assertThat(layout.oneWayLatencyInto("ap-southeast-2").toMillis()).isEqualTo(115);
        assertThat(layout.latencyIsExact()).isTrue();
    }

    @Test
    void withTlsEachNodeSpeaksCqlAndToItsPeersOverTlsOnlyWithItsOwnKeystoreAndTakesOnlyLogins() throws IOException {
        StackCli.Up up = up("--tls", "--work-dir", workDir.toString());
        StackLayout layout = StackLayout.of(up.settings());
        CassandraNode node = layout.cassandraIn("ap-southeast-2").get(0);
        StackTls tls = new StackTls(workDir.resolve("tls"), "pw");

        node.writeConfiguration(Optional.of(tls));

        assertThat(up.settings().tls()).isTrue();
        assertThat(up.layoutArgs()).contains("--tls");
        assertThat(up().settings().tls()).isFalse();
        assertThat(Files.readString(node.dir().resolve("conf/cassandra.yaml")))
                .contains("client_encryption_options:\n  enabled: true\n  optional: false\n  keystore: " + tls.keystore("cassandra-ap-southeast-2-1"))
                .contains("server_encryption_options:\n  internode_encryption: all\n")
                .contains("truststore: " + tls.truststore(), "store_type: PKCS12", "require_client_auth: true")
                .contains("authenticator:\n  class_name: org.apache.cassandra.auth.PasswordAuthenticator\n",
                        "authorizer:\n  class_name: org.apache.cassandra.auth.CassandraAuthorizer\n");
        assertThat(CassandraAuth.replication(layout)).isEqualTo("{'class': 'NetworkTopologyStrategy', 'us-east-1': 2, 'ap-southeast-2': 2}");
    }

    @Test
    void eachRegionGetsAnElasticsearchNodeOfItsOwnUnlessSearchIsLeftOut() throws IOException {
        StackLayout layout = StackLayout.of(StackSettings.defaults(workDir, 0));
        ElasticsearchNode node = layout.elasticsearchIn("ap-southeast-2");

        node.writeConfiguration();

        assertThat(node.url()).isEqualTo("http://127.0.2.4:9200");
        assertThat(Files.readString(node.dir().resolve("config/elasticsearch.yml")))
                .contains("cluster.name: brokerapp-ap-southeast-2", "network.host: 127.0.2.4", "discovery.type: single-node",
                        "cluster.routing.allocation.disk.threshold_enabled: false", "action.destructive_requires_name: true");
        assertThat(Files.readString(node.dir().resolve("config/log4j2.properties"))).contains(node.serverLog().toString());
        assertThat(up("--no-search").settings().search()).isFalse();
        assertThat(up("--no-search").layoutArgs()).contains("--no-search");
        assertThat(up().settings().search()).isTrue();
        assertThat(new AddressPlan(7).elasticsearchAddress(2)).isEqualTo("127.14.2.4");
    }

    @Test
    void prometheusRunsUnlessMetricsAreLeftOutAndTheChoiceIsKeptWithTheRunningStack() {
        assertThat(up().settings().metrics()).isTrue();
        assertThat(up().layoutArgs()).doesNotContain("--no-metrics");
        assertThat(up("--no-metrics").settings().metrics()).isFalse();
        assertThat(up("--no-metrics", "--no-search").layoutArgs()).contains("--no-metrics", "--no-search");
        // 'status', 'cut' and 'heal' re-read the running stack's settings from its layout arguments
        StackSettings reread = up(up("--no-metrics", "--no-search").layoutArgs().split(" ")).settings();
        assertThat(reread.metrics()).isFalse();
        assertThat(reread.search()).isFalse();
        // a Kafka-only stack drops search but keeps Prometheus as asked
        assertThat(up("--kafka-only").settings().metrics()).isTrue();
        assertThat(up("--kafka-only").settings().search()).isFalse();
    }

    private static StackCli.Up up(String... args) {
        StackCli.Up up = new StackCli.Up();
        new CommandLine(up).parseArgs(args);
        return up;
    }

    record Run(int exit, String out, String err) {
    }

    private static Run stack(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = CliConventions.execute("stack", new StackCli(), new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }
}
