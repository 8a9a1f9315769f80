package org.brokerapp.broker.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.brokerapp.infra.tls.LocalCertificates;
import org.brokerapp.infra.tls.StackTls;
import org.elasticsearch.client.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On AWS, Elasticsearch presents a certificate signed by Terraform's data CA, which no JVM trusts by
 * default: the search client trusts it through {@code broker.search.ssl-bundle}. A real TLS server
 * here, with a certificate from a CA made for the test: the client with that trust gets its answer,
 * the client without it is refused in the handshake.
 */
class SearchTlsTests {

    @TempDir
    Path dir;
    HttpsServer server;
    StackTls tls;

    @BeforeEach
    void serve() throws Exception {
        tls = LocalCertificates.issue(dir, Map.of("elasticsearch", List.of("127.0.0.1")), Instant.now());
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.keystore("elasticsearch"))) {
            keys.load(in, tls.password().toCharArray());
        }
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(keys, tls.password().toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(managers.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(context));
        server.createContext("/", exchange -> {
            byte[] body = "{\"tagline\":\"You Know, for Search\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aClusterSignedByTheDataCaAnswersTheClientThatTrustsIt() throws Exception {
        ElasticsearchClient client = SearchConfiguration.client(url(), properties(), tls.clientContext());
        try {
            var response = ((RestClientTransport) client._transport()).restClient().performRequest(new Request("GET", "/"));
            assertThat(response.getStatusLine().getStatusCode()).isEqualTo(200);
        } finally {
            client._transport().close();
        }
    }

    @Test
    void withoutTheBundleTheHandshakeFails() throws Exception {
        ElasticsearchClient client = SearchConfiguration.client(url(), properties());
        try {
            assertThatThrownBy(() -> ((RestClientTransport) client._transport()).restClient().performRequest(new Request("GET", "/")))
                    .hasStackTraceContaining("PKIX path building failed");
        } finally {
            client._transport().close();
        }
    }

    String url() {
        return "https://127.0.0.1:" + server.getAddress().getPort();
    }

    static SearchProperties properties() {
        return new SearchProperties(Map.of(), new SearchProperties.Indexer(true, "order-events", "", 100, Duration.ofMillis(100),
                Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ZERO), Duration.ofSeconds(1), Duration.ofDays(30), 20, "", "", "data-ca");
    }
}
