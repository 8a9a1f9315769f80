package org.brokerapp.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Collectors;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.brokerapp.regions.DeploymentOutputs;
import org.brokerapp.regions.KafkaTrust;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stack of its own with TLS on, the smallest that has internode traffic: one Cassandra node in
 * each of the two regions (WAN emulated), no search, no metrics. It runs beside the module's shared
 * stack, on instance {@code stack.tls-instance} (default: the shared stack's instance + 10).
 */
class TlsStackIT {

    private static LocalStack stack;

    @BeforeAll
    static void start() {
        int instance = Integer.getInteger("stack.tls-instance", Integer.getInteger("stack.instance", 1) + 10);
        Path workDir = Path.of("target/tls-stack");
        StackSettings settings = StackSettings.defaults(workDir, instance).withNodesPerDc(OptionalInt.of(1))
                .withSearch(false).withMetrics(false).withTls(true);
        stack = LocalStack.start(settings, true, "--work-dir " + settings.workDir() + " --instance " + instance
                + " --nodes-per-dc 1 --no-search --no-metrics --tls", new Progress(System.out));
        System.out.print(stack.describe());
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void aPlaintextCqlClientIsRefusedWhileOneTrustingTheStacksCaIsServed() {
        String region = stack.regions().names().get(0);

        assertThatThrownBy(() -> connect(CqlSession.builder(), region).close()).isInstanceOf(AllNodesFailedException.class);

        try (CqlSession session = stack.cqlSession(region)) {
            assertThat(session.execute("SELECT release_version FROM system.local").one().getString("release_version")).startsWith("5.0");
        }
    }

    @Test
    void aClientTrustingAnotherCaIsRefused(@TempDir Path elsewhere) {
        StackTls stranger = LocalCertificates.issue(elsewhere, Map.of(), Instant.now());
        String region = stack.regions().names().get(0);

        assertThatThrownBy(() -> connect(CqlSession.builder().withSslContext(stranger.clientContext()), region).close())
                .isInstanceOf(AllNodesFailedException.class);
    }

    @Test
    void theNodesSeeEachOtherUpNormalOverInternodeTlsAndCarryAWriteAcrossDataCenters() {
        assertThat(stack.layout().cassandra()).hasSize(2);
        for (CassandraNode observer : stack.layout().cassandra()) {
            assertThat(stack.clusterViewFrom(observer)).as("the cluster as %s sees it", observer.name())
                    .extracting(NodeStatus::code).containsExactly("UN", "UN");
        }

        String a = stack.regions().names().get(0);
        String b = stack.regions().names().get(1);
        try (CqlSession inA = stack.cqlSession(a); CqlSession inB = stack.cqlSession(b)) {
            for (CqlSession session : List.of(inA, inB)) {
                Map<String, String> settings = session.execute("SELECT name, value FROM system_views.settings").all().stream()
                        .filter(r -> r.getString("name").contains("encryption_options"))
                        .collect(Collectors.toMap(r -> r.getString("name"), r -> String.valueOf(r.getString("value"))));
                assertThat(settings).as("encryption settings").containsEntry("server_encryption_options.internode_encryption", "all")
                        .containsEntry("server_encryption_options.optional", "false")
                        .containsEntry("server_encryption_options.require_client_auth", "true")
                        .containsEntry("client_encryption_options.enabled", "true")
                        .containsEntry("client_encryption_options.optional", "false");
            }

            inA.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS tls_check WITH replication = "
                    + "{'class': 'NetworkTopologyStrategy', '" + stack.localDatacenter(a) + "': 1, '" + stack.localDatacenter(b) + "': 1}")
                    .setTimeout(Duration.ofSeconds(30)));
            inA.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS tls_check.notes (id uuid PRIMARY KEY, body text)")
                    .setTimeout(Duration.ofSeconds(30)));
            UUID id = UUID.randomUUID();
            inA.execute(SimpleStatement.newInstance("INSERT INTO tls_check.notes (id, body) VALUES (?, ?)", id, "over TLS")
                    .setConsistencyLevel(ConsistencyLevel.EACH_QUORUM));
            Row row = inB.execute(SimpleStatement.newInstance("SELECT body FROM tls_check.notes WHERE id = ?", id)
                    .setConsistencyLevel(ConsistencyLevel.LOCAL_ONE)).one();
            assertThat(row).isNotNull();
            assertThat(row.getString("body")).isEqualTo("over TLS");
        }
    }

    @Test
    void aBrokerStartedByHandFindsItsTlsSettingsAndHttpsPeersInOneFile() throws Exception {
        String a = stack.regions().names().get(0);
        String b = stack.regions().names().get(1);
        Properties settings = new Properties();
        try (var in = Files.newBufferedReader(stack.brokerTlsFile(a))) {
            settings.load(in);
        }

        assertThat(settings).containsEntry("server.ssl.bundle", BrokerTlsProperties.BUNDLE)
                .containsEntry("broker.routing.peers." + b, stack.brokerUrlFromOtherRegions(b));
        assertThat(stack.brokerUrlFromOtherRegions(b)).startsWith("https://");
        assertThat(stack.deploymentOutputs().regions().get(a).brokerUrl()).startsWith("https://");
    }

    @Test
    void kafkaServesLoginsOverTlsOnlyToClientsTrustingTheStacksCa(@TempDir Path elsewhere) throws Exception {
        String region = stack.regions().names().get(0);
        Map<String, Object> overTls = stack.kafkaClientConfig(region, KafkaAccess.ADMIN);
        assertThat(overTls).containsEntry("security.protocol", "SASL_SSL");
        assertThat(listTopics(overTls)).isNotNull();

        Map<String, Object> plaintext = new java.util.HashMap<>(stack.kafkaCredential(KafkaAccess.ADMIN).clientProperties());
        plaintext.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers(region));
        assertThatThrownBy(() -> listTopics(plaintext)).hasCauseInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);

        StackTls stranger = LocalCertificates.issue(elsewhere, Map.of(), Instant.now());
        Map<String, Object> trustingAnother = new java.util.HashMap<>(overTls);
        trustingAnother.putAll(stranger.kafkaTrust().clientProperties());
        assertThatThrownBy(() -> listTopics(trustingAnother)).hasCauseInstanceOf(org.apache.kafka.common.errors.SslAuthenticationException.class);
    }

    @Test
    void theOutputsFileCarriesTheKafkaCaAndALoginTrustingOnlyThatPemIsServed() throws Exception {
        String region = stack.regions().names().get(0);
        DeploymentOutputs outputs = DeploymentOutputs.read(stack.layout().settings().workDir().resolve(DeploymentOutputs.LOCAL_STACK_FILE));
        DeploymentOutputs.RegionEndpoints endpoints = outputs.regions().get(region);

        // what loadtest --target-terraform builds from the file, as from Terraform's (a PEM CA, inline; no store, no password)
        KafkaTrust trust = endpoints.kafkaTrust().orElseThrow();
        assertThat(trust).isInstanceOf(KafkaTrust.PemCertificates.class);
        Map<String, Object> config = new java.util.HashMap<>(stack.kafkaCredential(KafkaAccess.ADMIN).clientProperties(java.util.Optional.of(trust)));
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, endpoints.kafkaBootstrap());

        assertThat(config).containsEntry("security.protocol", "SASL_SSL").containsEntry("ssl.truststore.type", "PEM");
        assertThat(listTopics(config)).isNotNull();
    }

    @Test
    void theOutputsFileCarriesTheCqlCaAndAClientTrustingOnlyThatPemIsServed() {
        String region = stack.regions().names().get(0);
        DeploymentOutputs outputs = DeploymentOutputs.read(stack.layout().settings().workDir().resolve(DeploymentOutputs.LOCAL_STACK_FILE));

        // what loadtest --target-terraform builds for its floor writes from the file, as from Terraform's
        javax.net.ssl.SSLContext trust = outputs.regions().get(region).cqlTrust().orElseThrow().sslContext();

        try (CqlSession session = connect(CqlSession.builder().withSslContext(trust), region)) {
            assertThat(session.execute("SELECT release_version FROM system.local").one().getString("release_version")).startsWith("5.0");
        }
    }

    private static java.util.Set<String> listTopics(Map<String, Object> config) throws Exception {
        Map<String, Object> quick = new java.util.HashMap<>(config);
        quick.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 8_000);
        quick.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 4_000);
        try (Admin admin = Admin.create(quick)) {
            return admin.listTopics().names().get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    private static CqlSession connect(CqlSessionBuilder builder, String region) {
        return builder.addContactPoints(stack.cqlContactPoints(region)).withLocalDatacenter(stack.localDatacenter(region))
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(5))
                        .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofSeconds(5))
                        .build())
                .build();
    }
}
