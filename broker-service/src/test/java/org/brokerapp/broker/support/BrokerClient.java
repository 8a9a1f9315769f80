package org.brokerapp.broker.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

import javax.net.ssl.SSLContext;

import org.brokerapp.infra.Await;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A customer talking to one regional broker over HTTP, as any client would. */
public final class BrokerClient {

    /** A response: status, content type and parsed body. */
    public record Reply(int status, String contentType, JsonNode body, String raw, java.net.http.HttpHeaders headers) {
        public String text(String field) {
            return body.path(field).asString();
        }

        public java.util.Optional<String> header(String name) {
            return headers.firstValue(name);
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String base;
    private final HttpClient http;
    private final String authorization;

    BrokerClient(String base, String customer, String password) {
        this(base, HTTP, customer, password);
    }

    /** Through {@code http}: for an {@code https} broker, a client that trusts its CA ({@link #trusting}). */
    BrokerClient(String base, HttpClient http, String customer, String password) {
        this.base = base;
        this.http = http;
        this.authorization = customer == null ? null
                : "Basic " + Base64.getEncoder().encodeToString((customer + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** An HTTP client for brokers whose certificates {@code tls} trusts; the plain one without. */
    static HttpClient trusting(Optional<SSLContext> tls) {
        return tls.map(context -> HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(context).build()).orElse(HTTP);
    }

    public Reply place(Map<String, Object> order) {
        return send("POST", "/api/orders", JSON.writeValueAsString(order), "application/json");
    }

    public Reply send(String method, String path, String body, String contentType) {
        return exchange(method, path, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body), contentType);
    }

    /** The body with no Content-Length: sent with {@code Transfer-Encoding: chunked}. */
    public Reply sendChunked(String method, String path, String body, String contentType) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return exchange(method, path, HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(bytes)), contentType);
    }

    private Reply exchange(String method, String path, HttpRequest.BodyPublisher body, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .method(method, body);
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json = response.body().isBlank() ? JSON.createObjectNode() : parse(response.body());
            return new Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""), json, response.body(), response.headers());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Reply get(String path) {
        return send("GET", path, null, null);
    }

    public Reply delete(String path) {
        return send("DELETE", path, null, null);
    }

    /** Polls an order until it has {@code status}; fails with the last answer otherwise. */
    public Reply awaitStatus(String orderId, String status, Duration timeout) {
        return Await.until("order " + orderId + " " + status, timeout, () -> get("/api/orders/" + orderId),
                r -> r.status() == 200 && r.text("status").equals(status));
    }

    /** Polls the customer's holdings until {@code done} says so; fails with the last answer otherwise. */
    public Reply awaitHoldings(java.util.function.Predicate<Reply> done, Duration timeout) {
        return Await.until("holdings as awaited", timeout, () -> get("/api/holdings"), r -> r.status() == 200 && done.test(r));
    }

    /** Polls the symbol's last price until it is {@code price}: the broker has seen that tick. */
    public void awaitPrice(String symbol, String price, Duration timeout) {
        Await.until("the broker sees " + symbol + " at " + price, timeout, () -> get("/api/prices/" + symbol),
                r -> r.status() == 200 && new java.math.BigDecimal(r.text("price")).compareTo(new java.math.BigDecimal(price)) == 0);
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (RuntimeException notJson) {
            return JSON.createObjectNode().put("unparsed", body);
        }
    }
}
