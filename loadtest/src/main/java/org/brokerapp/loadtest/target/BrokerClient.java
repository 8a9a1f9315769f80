package org.brokerapp.loadtest.target;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import javax.net.ssl.SSLContext;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The brokers' REST API as the load customers ({@code load-N}, a bearer token each, see
 * {@link BearerTokens}) use it: one HTTP/1.1 client with persistent connections for the whole run.
 */
public final class BrokerClient {

    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /** Beyond this many orders awaiting an answer, a new one fails at once: an overloaded target must not exhaust the harness's sockets. */
    static final int MAX_IN_FLIGHT = 1024;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<String, String> brokerUrls;
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private final HttpClient http;
    private final BearerTokens tokens;

    public BrokerClient(Map<String, String> brokerUrls) {
        this(brokerUrls, Optional.empty());
    }

    /** {@code trust}: what HTTPS brokers are checked against beyond the JVM's defaults (the local stack's CA). */
    public BrokerClient(Map<String, String> brokerUrls, Optional<SSLContext> trust) {
        this.brokerUrls = Map.copyOf(brokerUrls);
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10));
        trust.ifPresent(builder::sslContext);
        this.http = builder.build();
        this.tokens = new BearerTokens(http);
    }

    /** {@code POST /api/orders} in {@code region} as {@code customerId}; completes with the answer, whatever its status. */
    public CompletableFuture<HttpResponse<String>> placeOrder(String region, String customerId, String password, String json) {
        if (!inFlight.tryAcquire()) {
            return CompletableFuture.failedFuture(new IllegalStateException("harness limit: " + MAX_IN_FLIGHT + " orders awaiting an answer"));
        }
        return tokens.authorization(base(region), customerId, password)
                .thenCompose(authorization -> http.sendAsync(request(region, "/api/orders", authorization).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString()))
                .whenComplete((answer, error) -> inFlight.release());
    }

    /** A GET as a customer, parsed; fails on any status but 200. */
    public JsonNode get(String region, String customerId, String password, String path) throws IOException, InterruptedException {
        String authorization;
        try {
            authorization = tokens.authorization(base(region), customerId, password).join();
        } catch (java.util.concurrent.CompletionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        }
        HttpResponse<String> r = http.send(request(region, path, authorization).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET " + path + " in " + region + " as " + customerId + ": HTTP " + r.statusCode() + " " + problemTitle(r.body()));
        }
        return JSON.readTree(r.body());
    }

    private HttpRequest.Builder request(String region, String path, String authorization) {
        return HttpRequest.newBuilder(URI.create(base(region) + path)).timeout(REQUEST_TIMEOUT).header("Authorization", authorization);
    }

    private String base(String region) {
        String base = brokerUrls.get(region);
        if (base == null) {
            throw new IllegalArgumentException("no broker for region " + region);
        }
        return base;
    }

    public static JsonNode parse(String json) {
        return JSON.readTree(json);
    }

    /** The {@code title} of a problem+json body, or "" when the body is not one. */
    public static String problemTitle(String body) {
        if (body == null || body.isBlank() || body.charAt(0) != '{') {
            return "";
        }
        try {
            JsonNode title = JSON.readTree(body).get("title");
            return title == null || title.isNull() ? "" : title.asString();
        } catch (RuntimeException notJson) {
            return "";
        }
    }
}
