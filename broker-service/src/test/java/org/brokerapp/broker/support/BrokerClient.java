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

import org.brokerapp.infra.host.Await;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A customer talking to one regional broker over HTTP, as any client would: it asks for a bearer
 * token with its password once ({@code POST /api/token}, HTTP Basic) and sends the token after. The
 * operator and the router (no tokens) send HTTP Basic. A credential the broker refuses is sent as
 * HTTP Basic, so that the test sees the broker's refusal of it.
 */
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

    private static final java.util.Set<String> BASIC_USERS = java.util.Set.of("operator", "router");
    /** Tokens by base URL and credential: a test's many clients of one customer ask once. */
    private static final Map<String, String> TOKENS = new java.util.concurrent.ConcurrentHashMap<>();

    private final String base;
    private final HttpClient http;
    private final String basic;
    private final boolean customer;
    private volatile String authorization;

    BrokerClient(String base, String customer, String password) {
        this(base, HTTP, customer, password);
    }

    /** Through {@code http}: for an {@code https} broker, a client that trusts its CA ({@link #trusting}). */
    BrokerClient(String base, HttpClient http, String customer, String password) {
        this.base = base;
        this.http = http;
        this.basic = customer == null ? null
                : "Basic " + Base64.getEncoder().encodeToString((customer + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.customer = customer != null && !BASIC_USERS.contains(customer);
        this.authorization = this.customer ? null : basic;
    }

    /** The Authorization header value: a customer's bearer token, asked for at first use. */
    private String authorization() {
        if (!customer || authorization != null) {
            return authorization;
        }
        String token = TOKENS.get(base + " " + basic);
        if (token == null) {
            Reply answer = exchange("POST", "/api/token", HttpRequest.BodyPublishers.noBody(), null, basic);
            if (answer.status() != 200) {
                // wrong password, or no such customer: let the API refuse the credential itself
                return basic;
            }
            token = "Bearer " + answer.text("access_token");
            TOKENS.put(base + " " + basic, token);
        }
        authorization = token;
        return token;
    }

    /** The broker's base URL, e.g. {@code http://127.0.1.3:8080}. */
    public String base() {
        return base;
    }

    /** An HTTP client for brokers whose certificates {@code tls} trusts; the plain one without. */
    static HttpClient trusting(Optional<SSLContext> tls) {
        return tls.map(context -> HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(context).build()).orElse(HTTP);
    }

    public Reply place(Map<String, Object> order) {
        return send("POST", "/api/orders", JSON.writeValueAsString(order), "application/json");
    }

    public Reply send(String method, String path, String body, String contentType) {
        return exchange(method, path, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body), contentType,
                authorization());
    }

    /** A request with the Authorization header given, not this client's. */
    public Reply send(String method, String path, String body, String contentType, String authorization) {
        return exchange(method, path, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body), contentType,
                authorization);
    }

    /** The body with no Content-Length: sent with {@code Transfer-Encoding: chunked}. */
    public Reply sendChunked(String method, String path, String body, String contentType) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return exchange(method, path, HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(bytes)), contentType,
                authorization());
    }

    private Reply exchange(String method, String path, HttpRequest.BodyPublisher body, String contentType, String authorization) {
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

    /** Every item of a paged list ({@code /api/orders}, {@code /api/transactions}): its pages, following each {@code Link rel="next"}. */
    public java.util.List<JsonNode> getAll(String path) {
        java.util.List<JsonNode> items = new java.util.ArrayList<>();
        String next = path;
        while (next != null) {
            Reply page = get(next);
            if (page.status() != 200) {
                throw new AssertionError("GET " + next + ": " + page.raw());
            }
            page.body().forEach(items::add);
            next = page.header("Link").map(BrokerClient::nextOf).orElse(null);
        }
        return items;
    }

    /** The target of an RFC 8288 {@code rel="next"} link, if the header names one. */
    public static String nextOf(String link) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<([^>]+)>\\s*;\\s*rel=\"next\"").matcher(link);
        return m.find() ? m.group(1) : null;
    }

    public Reply delete(String path) {
        return send("DELETE", path, null, null);
    }

    /** Polls an order until it has {@code status}; fails with the last answer otherwise. */
    public Reply awaitStatus(String orderId, String status, Duration timeout) {
        return Await.until("order " + orderId + " " + status, timeout, () -> get("/api/orders/" + orderId),
                r -> r.status() == 200 && r.text("status").equals(status));
    }

    /** Runs {@code tick} every 200 ms until the order reads FILLED (a tick consumer may still be reconnecting); fails with the last answer otherwise. */
    public Reply awaitFilledTicking(String orderId, Runnable tick, Duration timeout) {
        return Await.until("order " + orderId + " filled", timeout, () -> {
            tick.run();
            Brokers.sleep(200);
            return get("/api/orders/" + orderId);
        }, r -> r.status() == 200 && "FILLED".equals(r.text("status")));
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
