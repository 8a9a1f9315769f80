package org.brokerapp.infra.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.host.ServerLibraries;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.ElasticsearchNode;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.servers.KafkaBroker;
import org.brokerapp.infra.servers.KafkaCredentials;
import org.brokerapp.infra.servers.SearchLogins;
import org.brokerapp.infra.stack.StackLayout;
import org.brokerapp.infra.stack.StackSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stack in containers (the docker profile) keeps the address plan for clients; no container is started here. */
class ContainerLayoutTests {

    private static final Path HOME = Path.of("/var/lib/brokerapp");

    @TempDir
    Path workDir;

    @Test
    void clientsSeeThePlansAddressesWhileTheNodesGossipOnTheContainersNetwork() {
        StackLayout layout = StackLayout.inContainers(StackSettings.defaults(workDir, 1));
        CassandraNode node = layout.cassandraIn("ap-southeast-2").get(1);

        assertThat(layout.settings().wanEmulation()).isFalse();
        assertThat(node.address()).isEqualTo("127.2.2.12");
        assertThat(node.wanAddress()).isEqualTo("10.89.101.22");
        assertThat(node.seeds()).containsExactly("10.89.101.11:7000", "10.89.101.21:7000");
        assertThat(layout.kafkaIn("ap-southeast-2").bootstrapServers()).isEqualTo("127.2.2.2:9092");
    }

    @Test
    void aNodeInAContainerBindsItsOwnInterfacesAndTellsClientsItsPublishedAddress() {
        CassandraNode node = StackLayout.inContainers(StackSettings.defaults(workDir, 1)).cassandraIn("us-east-1").get(0);

        Map<Path, String> files = node.containerFiles(HOME);

        assertThat(files.get(HOME.resolve("conf/cassandra.yaml"))).contains("listen_address: 10.89.101.11", "broadcast_address: 10.89.101.11",
                "rpc_address: 0.0.0.0", "broadcast_rpc_address: 127.2.1.11", "data_file_directories:\n  - /var/lib/brokerapp/data");
        assertThat(files.get(HOME.resolve("conf/cassandra-rackdc.properties"))).contains("dc=us-east-1");
        assertThat(files.get(HOME.resolve("conf/logback.xml"))).contains("ConsoleAppender").doesNotContain("FileAppender");
        assertThat(String.join(" ", node.containerCommand(ServerLibraries.fromBuild(), HOME)))
                .contains("-Dcassandra.jmx.remote.port=7211", "-Djava.rmi.server.hostname=127.0.0.1", "-cp /opt/cassandra/lib/*",
                        "-javaagent:/opt/cassandra/lib/jamm-")
                .doesNotContain("jmx.local.port", workDir.toString());
    }

    @Test
    void aKafkaInAContainerListensEverywhereAdvertisesThePlansAddressAndRequiresTheProcessesLogins() {
        KafkaBroker broker = StackLayout.inContainers(StackSettings.defaults(workDir, 1)).kafkaIn("us-east-1");
        KafkaCredentials credentials = KafkaCredentials.loadOrCreate(workDir, KafkaAccess.principals(List.of("us-east-1")));
        String adminPassword = credentials.of(KafkaAccess.ADMIN).password();

        String properties = broker.containerFiles(HOME, adminPassword).get(HOME.resolve("conf/server.properties"));
        String process = broker.serverProperties(adminPassword, Optional.empty());

        assertThat(properties)
                .contains("listeners=CLIENT://0.0.0.0:9092,CONTROLLER://localhost:9093",
                        "advertised.listeners=CLIENT://127.2.1.2:9092,CONTROLLER://localhost:9093", "log.dirs=/var/lib/brokerapp/data")
                .doesNotContain("PLAINTEXT://");
        // everything but where it binds and where its data is: as the process's
        assertThat(securityLines(properties)).isNotEmpty().isEqualTo(securityLines(process));
        assertThat(properties).contains("listener.security.protocol.map=CONTROLLER:SASL_PLAINTEXT,CLIENT:SASL_PLAINTEXT",
                "sasl.mechanism.controller.protocol=PLAIN", "super.users=User:" + KafkaAccess.ADMIN, "allow.everyone.if.no.acl.found=false",
                "password=\"" + adminPassword + "\"");

        String command = broker.containerCommand(HOME, credentials).get(2);
        assertThat(command).startsWith("test -f /var/lib/brokerapp/data/meta.properties || ")
                .contains("'kafka.tools.StorageTool' 'format'", "&& exec 'java'", "'kafka.Kafka'");
        for (String principal : KafkaAccess.principals("us-east-1")) {
            assertThat(command).contains("'--add-scram' 'SCRAM-SHA-512=[name=" + principal + ",password=" + credentials.of(principal).password() + "]'");
        }
    }

    @Test
    void theStackInContainersRefusesTlsBeforeStartingAnything() {
        assertThatThrownBy(() -> ContainerStack.start(StackSettings.defaults(workDir, 1).withTls(true), new Progress(System.out)))
                .isInstanceOf(StackException.class).hasMessageContaining("TLS").hasMessageContaining("not supported when the stack runs in containers");
        assertThat(workDir.resolve(KafkaCredentials.DIRECTORY)).doesNotExist();
    }

    private static List<String> securityLines(String properties) {
        return properties.lines().filter(l -> l.startsWith("sasl.") || l.startsWith("listener.") || l.startsWith("authorizer.")
                || l.startsWith("allow.") || l.startsWith("super.") || l.startsWith("inter.broker") || l.startsWith("controller.listener")).toList();
    }

    @Test
    void anElasticsearchInAContainerListensEverywhereAndRunsTheLauncherFromTheImage() {
        StackLayout layout = StackLayout.inContainers(StackSettings.defaults(workDir, 1).withMetrics(true));
        ElasticsearchNode node = layout.elasticsearchIn("us-east-1");

        assertThat(layout.settings().metrics()).isFalse();
        assertThat(node.containerFiles(HOME).get(HOME.resolve("config/elasticsearch.yml")))
                .contains("network.host: 0.0.0.0", "http.port: 9200", "discovery.type: single-node", "path.data: /var/lib/brokerapp/data")
                // every request logs in: the node knows each login by its password's SHA-256, never the password
                .contains("http.type: brokerapp-login", "\"broker:", "\"admin:")
                .doesNotContain(SearchLogins.loadOrCreate(workDir).password(SearchLogins.BROKER));
        assertThat(node.containerFiles(HOME).get(HOME.resolve("config/log4j2.properties"))).contains("type = Console", "direct = true").doesNotContain("name = console", "fileName");
        assertThat(String.join(" ", node.containerCommand(HOME)))
                .startsWith("java ")
                .contains("-Des.path.home=/opt/elasticsearch/home", "-cp /opt/elasticsearch/lib/*", ElasticsearchNode.LAUNCHER)
                .endsWith(" /var/lib/brokerapp/config")
                .doesNotContain(workDir.toString());
    }

    @Test
    void everyInstanceHasANetworkOfItsOwn() {
        assertThat(new AddressPlan(0).containerSubnet()).isEqualTo("10.89.100.0/24");
        assertThat(new AddressPlan(9).containerSubnet()).isEqualTo("10.89.109.0/24");
        assertThat(new AddressPlan(9).cassandraContainerAddress(2, 1)).isEqualTo("10.89.109.21");
    }

    @Test
    void everyContainerHasAFixedAddressNoneOfThemShares() {
        AddressPlan plan = new AddressPlan(8);
        java.util.Set<String> addresses = new java.util.HashSet<>();
        for (int r = 1; r <= 9; r++) {
            for (int n = 1; n <= 9; n++) {
                assertThat(addresses.add(plan.cassandraContainerAddress(r, n))).isTrue();
            }
            assertThat(addresses.add(plan.kafkaContainerAddress(r))).isTrue();
            assertThat(addresses.add(plan.elasticsearchContainerAddress(r))).isTrue();
        }
        assertThat(addresses).allMatch(a -> a.startsWith("10.89.108.") && Integer.parseInt(a.substring(10)) < 255);
    }
}
