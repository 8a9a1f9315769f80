package org.brokerapp.infra.stack;

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
import javax.net.ssl.SSLContext;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.CqlRoles;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.tls.BrokerTlsProperties;
import org.brokerapp.infra.tls.LocalCertificates;
import org.brokerapp.infra.tls.StackTls;
import org.brokerapp.regions.CqlLogin;
import org.brokerapp.regions.DeploymentOutputs;
import org.brokerapp.regions.KafkaTrust;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stack of its own with TLS on (and CQL logins with it), the smallest that has internode traffic: one Cassandra node in
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
    void cqlTakesOnlyLoginsAndNotTheDefaultSuperusersWhileTheStacksRoleLogsIn() {
        String region = stack.regions().names().get(0);
        SSLContext trusting = stack.tls().orElseThrow().clientContext();

        assertThatThrownBy(() -> connect(CqlSession.builder().withSslContext(trusting), region).close())
                .isInstanceOf(AllNodesFailedException.class).hasMessageContaining("authentication");
        assertThatThrownBy(() -> connect(CqlSession.builder().withSslContext(trusting).withAuthCredentials("cassandra", "cassandra"), region).close())
                .isInstanceOf(AllNodesFailedException.class);
        assertThat(stack.cqlPasswordFile(CqlRoles.STACK).orElseThrow()).isEqualTo(stack.layout().settings().workDir().resolve("cql-credentials/stack.password"));
        try (CqlSession session = stack.cqlSession(region)) {
            assertThat(session.execute("SELECT is_superuser FROM system_auth.roles WHERE role = 'stack'").one().getBoolean("is_superuser")).isTrue();
            assertThat(session.execute("SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = 'system_auth'").one()
                    .getMap("replication", String.class, String.class)).containsEntry(stack.localDatacenter(region), "1")
                    .containsEntry(stack.localDatacenter(stack.regions().names().get(1)), "1");
        }
    }

    /** What the Terraform README grants the brokers: their own keyspace once they created it, nothing of anyone else's, no roles. */
    @Test
    void theBrokersRoleMayCreateItsKeyspaceAndUseItButNothingElse() {
        String a = stack.regions().names().get(0);
        String b = stack.regions().names().get(1);
        String replication = "{'class': 'NetworkTopologyStrategy', '" + stack.localDatacenter(a) + "': 1, '" + stack.localDatacenter(b) + "': 1}";
        try (CqlSession admin = stack.cqlSession(a)) {
            admin.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS not_the_brokers WITH replication = " + replication)
                    .setTimeout(Duration.ofSeconds(30)));
            admin.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS not_the_brokers.notes (id int PRIMARY KEY)").setTimeout(Duration.ofSeconds(30)));
            stack.awaitSchemaAgreement(Duration.ofSeconds(120));
        }
        CqlLogin brokerRole = stack.cqlLogin(CqlRoles.BROKER).orElseThrow();

        try (CqlSession broker = connect(CqlSession.builder().withSslContext(stack.tls().orElseThrow().clientContext())
                .withAuthCredentials(brokerRole.role(), brokerRole.password()), a)) {
            broker.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS brokers_own WITH replication = " + replication)
                    .setTimeout(Duration.ofSeconds(30)));
            broker.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS brokers_own.notes (id int PRIMARY KEY, body text)")
                    .setTimeout(Duration.ofSeconds(30)));
            stack.awaitSchemaAgreement(Duration.ofSeconds(120));
            broker.execute("INSERT INTO brokers_own.notes (id, body) VALUES (1, 'mine')");
            assertThat(broker.execute("SELECT body FROM brokers_own.notes WHERE id = 1").one().getString("body")).isEqualTo("mine");
            // the migrations' CREATE KEYSPACE IF NOT EXISTS, run again by every instance at start-up
            broker.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS brokers_own WITH replication = " + replication));

            assertThatThrownBy(() -> broker.execute("SELECT id FROM not_the_brokers.notes")).isInstanceOf(UnauthorizedException.class);
            assertThatThrownBy(() -> broker.execute("SELECT role FROM system_auth.roles")).isInstanceOf(UnauthorizedException.class);
            assertThatThrownBy(() -> broker.execute("CREATE ROLE intruder WITH LOGIN = true AND PASSWORD = 'x'")).isInstanceOf(UnauthorizedException.class);
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
            stack.awaitSchemaAgreement(Duration.ofSeconds(120));
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

        assertThat(settings).containsEntry("server.ssl.bundle", BrokerTlsProperties.BUNDLE).containsEntry("spring.cassandra.username", CqlRoles.BROKER)
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

        CqlLogin stackRole = stack.cqlLogin(CqlRoles.STACK).orElseThrow();
        try (CqlSession session = connect(CqlSession.builder().withSslContext(trust).withAuthCredentials(stackRole.role(), stackRole.password()), region)) {
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
