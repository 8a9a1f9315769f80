package org.brokerapp.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import javax.net.ssl.SSLContext;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One login talking to one broker, as any client would: a customer asks for a bearer token with its password once
 * ({@link BearerTokens}) and sends the token after; the operator and the router (no tokens) send HTTP Basic. A
 * credential the broker refuses a token for is sent as HTTP Basic, so that the caller sees the API refuse it. Every
 * answer comes back whatever its status: the tests read refusals as closely as successes (their fixture adds the
 * waits, {@code support.TestSession}).
 */
public class BrokerSession {

    /** An answer: status, content type, the body parsed ({@code {"unparsed": ...}} when it is not JSON) and as sent. */
    public record Reply(int status, String contentType, JsonNode body, String raw, HttpHeaders headers) {

        public String text(String field) {
            return body.path(field).asString();
        }

        public Optional<String> header(String name) {
            return headers.firstValue(name);
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final HttpClient PLAIN = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
    private static final Set<String> BASIC_USERS = Set.of("operator", "router");

    private final String base;
    private final HttpClient http;
    private final BearerTokens tokens;
    private final String login;
    private final String password;

    /** {@code login} {@code null}: no credential at all. {@code http}: see {@link #trusting}. */
    public BrokerSession(String base, HttpClient http, BearerTokens tokens, String login, String password) {
        this.base = base;
        this.http = http;
        this.tokens = tokens;
        this.login = login;
        this.password = password;
    }

    /** An HTTP client for brokers whose certificates {@code tls} trusts; the plain one without. */
    public static HttpClient trusting(Optional<SSLContext> tls) {
        return tls.map(context -> HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).sslContext(context).build()).orElse(PLAIN);
    }

    /** The broker's base URL, e.g. {@code http://127.0.1.3:8080}. */
    public String base() {
        return base;
    }

    public Reply place(Map<String, Object> order) {
        return send("POST", "/api/orders", JSON.writeValueAsString(order), "application/json");
    }

    public Reply send(String method, String path, String body, String contentType) {
        return send(method, path, body, contentType, authorization());
    }

    /** A request with the Authorization header given, not this session's. */
    public Reply send(String method, String path, String body, String contentType, String authorization) {
        return exchange(method, path, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body), contentType,
                authorization);
    }

    /** The body with no Content-Length: sent with {@code Transfer-Encoding: chunked}. */
    public Reply sendChunked(String method, String path, String body, String contentType) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return exchange(method, path, HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)), contentType, authorization());
    }

    public Reply get(String path) {
        return send("GET", path, null, null);
    }

    public Reply delete(String path) {
        return send("DELETE", path, null, null);
    }

    /** Opens this customer's order updates ({@code GET /api/orders/stream}), after {@code lastEventId} when given. */
    public OrderStream stream(Optional<String> lastEventId) {
        return OrderStream.open(http, base, authorization(), lastEventId, null);
    }

    /** As {@link #stream(Optional)}, every event handed to {@code listener} on the stream's reading thread as it arrives. */
    public OrderStream stream(Optional<String> lastEventId, java.util.function.Consumer<OrderStream.Event> listener) {
        return OrderStream.open(http, base, authorization(), lastEventId, listener);
    }

    /** Every item of a paged list ({@code /api/orders}, {@code /api/transactions}): its pages, following each {@code Link rel="next"}. */
    public List<JsonNode> getAll(String path) {
        List<JsonNode> items = new ArrayList<>();
        String next = path;
        while (next != null) {
            Reply page = get(next);
            if (page.status() != 200) {
                throw new IllegalStateException("GET " + next + " at " + base + " as " + login + ": HTTP " + page.status() + " "
                        + BrokerClient.problemTitle(page.raw()));
            }
            page.body().forEach(items::add);
            next = page.header("Link").map(BrokerClient::nextOf).orElse(null);
        }
        return items;
    }

    /** The Authorization header value: a customer's bearer token, asked for at first use; HTTP Basic otherwise. */
    private String authorization() {
        if (login == null) {
            return null;
        }
        if (BASIC_USERS.contains(login)) {
            return BearerTokens.basic(login, password);
        }
        try {
            return tokens.authorization(base, login, password).join();
        } catch (CompletionException refused) {
            // a wrong password, or no such customer: let the API refuse the credential itself
            return BearerTokens.basic(login, password);
        }
    }

    private Reply exchange(String method, String path, HttpRequest.BodyPublisher body, String contentType, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(REQUEST_TIMEOUT).method(method, body);
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
            throw new IllegalStateException(method + " " + path + " at " + base + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (RuntimeException notJson) {
            return JSON.createObjectNode().put("unparsed", body);
        }
    }
}
