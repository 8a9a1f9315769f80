package org.brokerapp.loadtest.deployment;

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
 * The load customers' bearer tokens: asked for once per customer ({@code POST /api/token} with the
 * password, HTTP Basic; one BCrypt check on the broker) and sent on every order after. A token of
 * one region is good in all (the regions share the token key), so one per customer is enough.
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
        CompletableFuture<String> token = tokens.computeIfAbsent(customerId, id -> fetch(baseUrl, id, password));
        if (token.isCompletedExceptionally()) {
            // a failed fetch (broker starting, region cut) is asked again next time
            tokens.remove(customerId, token);
        }
        return token;
    }

    private CompletableFuture<String> fetch(String baseUrl, String customerId, String password) {
        String basic = Base64.getEncoder().encodeToString((customerId + ":" + password).getBytes(StandardCharsets.UTF_8));
        return http.sendAsync(HttpRequest.newBuilder(URI.create(baseUrl + "/api/token")).timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Basic " + basic).POST(HttpRequest.BodyPublishers.noBody()).build(),
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
        String password = System.getenv().getOrDefault("BROKER_OPERATOR_PASSWORD", "operator-pw");
        return "Basic " + Base64.getEncoder().encodeToString(("operator:" + password).getBytes(StandardCharsets.UTF_8));
    }
}
