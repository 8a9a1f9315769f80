package org.brokerapp.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

import tools.jackson.databind.json.JsonMapper;

/**
 * Customers' bearer tokens: asked for once per customer and password ({@code POST /api/token}, HTTP Basic; one
 * BCrypt check on the broker) and sent on every request after. A token of one region is good in all (the regions
 * share the token key), so one per customer is enough. A refused or failed fetch is not kept: asked again next time.
 */
public final class BearerTokens {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http;
    private final Map<String, CompletableFuture<String>> tokens = new ConcurrentHashMap<>();

    public BearerTokens(HttpClient http) {
        this.http = http;
    }

    /** The {@code Authorization} header value for the customer, from the broker at {@code baseUrl} the first time. */
    public CompletableFuture<String> authorization(String baseUrl, String customerId, String password) {
        String key = customerId + ":" + password;
        CompletableFuture<String> token = tokens.computeIfAbsent(key, k -> fetch(baseUrl, customerId, password));
        if (token.isCompletedExceptionally()) {
            // a failed fetch (broker starting, region cut, a wrong password) is asked again next time
            tokens.remove(key, token);
        }
        return token;
    }

    /** The HTTP Basic header value of a login. */
    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private CompletableFuture<String> fetch(String baseUrl, String customerId, String password) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create(baseUrl + "/api/token")).timeout(Duration.ofSeconds(30))
                        .header("Authorization", basic(customerId, password)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString()).thenApply(r -> {
                    if (r.statusCode() != 200) {
                        throw new CompletionException(new java.io.IOException("token for " + customerId + ": HTTP " + r.statusCode()
                                + " " + BrokerClient.problemTitle(r.body())));
                    }
                    return "Bearer " + JSON.readTree(r.body()).get("access_token").asString();
                });
    }

    /** The operator's HTTP Basic header (metrics): password from {@code BROKER_OPERATOR_PASSWORD}, else the local profile's. */
    public static String operator() {
        return basic("operator", System.getenv().getOrDefault("BROKER_OPERATOR_PASSWORD", "operator-pw"));
    }
}
