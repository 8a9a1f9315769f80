package org.brokerapp.broker.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.OptionalInt;
import javax.net.ssl.SSLHandshakeException;

import com.datastax.oss.driver.api.core.CqlSession;
import org.brokerapp.broker.BrokerApplication;
import org.brokerapp.broker.peer.PeerLinks;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.infra.host.Await;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.servers.CqlRoles;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.infra.stack.StackSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One broker on a stack running TLS: a stack of its own, the smallest (one Cassandra node per
 * region, no search, no metrics), on instance {@code stack.tls-instance} (default: the shared stack's
 * instance + 10). The broker serves HTTPS only, with its region's certificate; it could not start
 * without CQL over TLS (the nodes refuse plaintext, TlsStackIT); its peer link is https, here to its
 * own WAN face, since the other region runs no broker. It logs in to Cassandra as the stack's broker
 * role, which may create keyspaces and nothing more.
 */
class TlsBrokerIT {

    private static final String REGION = "us-east-1";
    private static final String PEER = "ap-southeast-2";

    private static LocalStack stack;
    private static ConfigurableApplicationContext broker;
    private static HttpClient trusting;

    @BeforeAll
    static void start() throws IOException {
        int instance = Integer.getInteger("stack.tls-instance", Integer.getInteger("stack.instance", 1) + 10);
        StackSettings settings = StackSettings.defaults(Path.of("target/tls-stack"), instance).withNodesPerDc(OptionalInt.of(1))
                .withSearch(false).withMetrics(false).withTls(true);
        stack = LocalStack.start(settings, true, "--work-dir " + settings.workDir() + " --instance " + instance
                + " --nodes-per-dc 1 --no-search --no-metrics --tls", new Progress(System.out));
        trusting = HttpClient.newBuilder().sslContext(stack.tls().orElseThrow().clientContext()).connectTimeout(Duration.ofSeconds(5)).build();
        // the keyspace's replication as the stack runs: one node per DC (the default model's 2 would leave LOCAL_QUORUM short)
        Path regions = settings.workDir().resolve("regions-one-node.yaml");
        Files.writeString(regions, Files.readString(Path.of("..", "infra", "regions.yaml")).replaceAll("cassandra-nodes: \\d+", "cassandra-nodes: 1"));
        // over Kafka's TLS listener, as the admin: the broker takes symbols only from a topic that exists
        Brokers.createTicksTopic(stack.kafkaClientConfig(REGION, KafkaAccess.ADMIN));
        Map<String, Object> properties = Brokers.properties(stack, REGION);
        properties.keySet().removeIf(key -> key.startsWith("broker.search."));
        properties.put("broker.regions-file", regions.toString());
        properties.put("broker.routing.peers." + PEER, stack.brokerUrlFromOtherRegions(REGION));
        broker = new SpringApplicationBuilder(BrokerApplication.class)
                .run(properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new));
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void theBrokerServesHttpsWithItsRegionsCertificateFromTheStacksCaAndNothingElse() throws Exception {
        String url = stack.brokerUrl(REGION);
        assertThat(url).startsWith("https://");

        HttpResponse<String> answer = trusting.send(HttpRequest.newBuilder(URI.create(url + "/actuator/health/liveness")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        X509Certificate served = (X509Certificate) answer.sslSession().orElseThrow().getPeerCertificates()[0];
        served.verify(caCertificate().getPublicKey());

        HttpClient defaultTrust = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        assertThatThrownBy(() -> defaultTrust.send(HttpRequest.newBuilder(URI.create(url + "/actuator/health/liveness")).build(),
                HttpResponse.BodyHandlers.discarding())).isInstanceOf(SSLHandshakeException.class);
        assertThat(plainHttpStatus(url.replace("https://", "http://") + "/actuator/health/liveness")).isNotEqualTo(200);
    }

    /** Its keyspace made by its migrations as the broker role, with no more than the Terraform README grants (TlsStackIT shows what that is). */
    @Test
    void aCustomersHoldingsComeFromCassandraOverTlsAsTheBrokersRole() throws Exception {
        assertThat(broker.getBean(CqlSession.class).getContext().getSslEngineFactory()).isPresent();
        try (CqlSession admin = stack.cqlSession(REGION)) {
            assertThat(admin.execute("SELECT username FROM system_views.clients").all()).extracting(row -> row.getString("username"))
                    .contains(CqlRoles.BROKER).doesNotContain("cassandra");
            assertThat(admin.execute("SELECT permissions FROM system_auth.role_permissions WHERE role = ? AND resource = ?", CqlRoles.BROKER,
                    "data/" + broker.getBean(BrokerProperties.class).keyspace()).one()).as("the creator's permissions on the keyspace")
                    .isNotNull();
        }

        HttpResponse<String> token = trusting.send(HttpRequest.newBuilder(URI.create(stack.brokerUrl(REGION) + "/api/token"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("alice:alice-pw".getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(token.statusCode()).as(token.body()).isEqualTo(200);
        String bearer = "Bearer " + token.body().replaceAll(".*\"access_token\":\"([^\"]+)\".*", "$1");
        HttpResponse<String> holdings = trusting.send(HttpRequest.newBuilder(URI.create(stack.brokerUrl(REGION) + "/api/holdings"))
                .header("Authorization", bearer).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(holdings.statusCode()).as(holdings.body()).isEqualTo(200);
    }

    @Test
    void theBrokerTakesItsSymbolsAndCustomersFromKafkaOverTls() {
        assertThat(broker.getBean(BrokerProperties.class).kafka().connection()).containsEntry("security.protocol", "SASL_SSL");

        // ready only once Kafka has assigned it tick partitions and customer partitions: over TLS, or not at all
        Await.until("readiness UP", Duration.ofSeconds(90), () -> trusting.send(HttpRequest.newBuilder(
                URI.create(stack.brokerUrl(REGION) + "/actuator/health/readiness")).build(), HttpResponse.BodyHandlers.discarding()).statusCode(),
                status -> status == 200);
    }

    @Test
    void thePeerLinkReachesAnHttpsBrokerTrustingTheStacksCa() {
        PeerLinks links = broker.getBean(PeerLinks.class);
        assertThat(links.peer(PEER).orElseThrow().getScheme()).isEqualTo("https");

        Await.until("a ping over the https peer link answered", Duration.ofSeconds(30), () -> links.silentFor(PEER).compareTo(Duration.ofSeconds(3)) < 0);
    }

    private static X509Certificate caCertificate() throws Exception {
        try (var in = Files.newInputStream(stack.tls().orElseThrow().caCertificate())) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    /** What a plaintext request gets from the HTTPS port: no answer at all, or Tomcat's 400 "requires TLS". */
    private static int plainHttpStatus(String url) {
        try {
            return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()
                    .send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException refused) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
