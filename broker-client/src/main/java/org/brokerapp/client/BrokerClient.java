package org.brokerapp.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;

import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one Java client of the brokers' REST API, for the brokers of every region: the load harness's, and through
 * {@link #session} and {@link BrokerSession} the tests'. Customers send a bearer token each ({@link BearerTokens}),
 * over persistent HTTP/1.1 connections.
 *
 * <p>Orders go through a blocking client (Apache HttpClient 5, classic), one sending thread per
 * order in flight: the thread that writes a request reads its answer, so the latency a placement
 * records is the broker's and the wire's, not the client's. The JDK's asynchronous client hands a
 * request and its answer between three threads, and on this 2-core machine that alone added 6-8 ms
 * to a placement's p50 (docs/benchmarks/log/2026-11-24-harness-client.md). The rest (tokens,
 * the check's reads) keeps the JDK client: its cost is not measured.
 */
public final class BrokerClient implements AutoCloseable {

    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /** Beyond this many orders awaiting an answer, a new one fails at once: an overloaded target must not exhaust the harness's sockets. */
    static final int MAX_IN_FLIGHT = 1024;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<String, String> brokerUrls;
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private final HttpClient http;
    private final Optional<SSLContext> trust;
    private final BearerTokens tokens;
    private final CloseableHttpClient orders;
    private final ExecutorService senders;

    public BrokerClient(Map<String, String> brokerUrls) {
        this(brokerUrls, Optional.empty());
    }

    /** {@code trust}: what HTTPS brokers are checked against beyond the JVM's defaults (the local stack's CA). */
    public BrokerClient(Map<String, String> brokerUrls, Optional<SSLContext> trust) {
        this.brokerUrls = Map.copyOf(brokerUrls);
        this.trust = trust;
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10));
        trust.ifPresent(builder::sslContext);
        this.http = builder.build();
        this.tokens = new BearerTokens(http);
        this.orders = ordersClient(trust);
        this.senders = senders();
    }

    /**
     * An order's answer: its HTTP status and body, whatever the status, and when its last byte was
     * read ({@link System#nanoTime()}), so that its latency ends there and not after the harness's own
     * bookkeeping (parsing the body, recording).
     */
    public record Answer(int status, String body, long receivedNanos) {
    }

    /**
     * {@code POST /api/orders} in {@code region} as {@code customerId}, sent at {@code sendAtNanos}
     * ({@link System#nanoTime()}) or at once if that is past; completes with the answer, whatever its
     * status. Handed over ahead of its time, an order waits on the thread that sends it, so the
     * hand-over between threads is not in its latency (a bare write from the floor loop has none).
     */
    public CompletableFuture<Answer> placeOrder(String region, String customerId, String password, String json, long sendAtNanos) {
        if (!inFlight.tryAcquire()) {
            return CompletableFuture.failedFuture(new NotSent("harness limit: " + MAX_IN_FLIGHT + " orders awaiting an answer"));
        }
        String url = base(region) + "/api/orders";
        return tokens.authorization(base(region), customerId, password)
                .thenApplyAsync(authorization -> post(url, authorization, json, sendAtNanos), senders)
                .whenComplete((answer, error) -> inFlight.release());
    }

    private Answer post(String url, String authorization, String json, long sendAtNanos) {
        HttpPost post = new HttpPost(url);
        post.setHeader("Authorization", authorization);
        post.setEntity(new StringEntity(json, ContentType.APPLICATION_JSON));
        for (long wait; (wait = sendAtNanos - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(wait);
        }
        try {
            return orders.execute(post, response -> {
                String body = response.getEntity() == null ? "" : EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
                return new Answer(response.getCode(), body, System.nanoTime());
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The blocking client orders go through; public for {@code ClientOverheadProbe}, which sets it beside the JDK's. */
    public static CloseableHttpClient ordersClient(Optional<SSLContext> trust) {
        PoolingHttpClientConnectionManagerBuilder connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(MAX_IN_FLIGHT).setMaxConnPerRoute(MAX_IN_FLIGHT)
                .setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).build())
                .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(Timeout.ofSeconds(10))
                        .setSocketTimeout(Timeout.of(REQUEST_TIMEOUT)).build());
        trust.ifPresent(context -> connections.setTlsSocketStrategy(ClientTlsStrategyBuilder.create().setSslContext(context).buildClassic()));
        return HttpClients.custom().setConnectionManager(connections.build())
                .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.of(REQUEST_TIMEOUT)).build())
                // an order is never sent twice by the client: a retry is the harness's decision, with the same clientOrderId
                .disableAutomaticRetries().disableRedirectHandling().disableCookieManagement()
                .build();
    }

    /**
     * One thread per order in flight (at most {@link #MAX_IN_FLIGHT}, by the semaphore), kept a minute after its last order.
     * The pool itself is not bounded: an order frees its permit on its thread just before that thread is free, so
     * with every permit taken a bound of {@link #MAX_IN_FLIGHT} threads refused the next order (a
     * RejectedExecutionException at the prototype's load) while a thread was still on its way back.
     */
    private static ExecutorService senders() {
        AtomicInteger n = new AtomicInteger();
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
            Thread t = new Thread(task, "order-sender-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void close() {
        senders.shutdownNow();
        try {
            orders.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One customer's (or the operator's) session with the broker of {@code region}: every answer, whatever its status. */
    public BrokerSession session(String region, String customerId, String password) {
        return new BrokerSession(base(region), http, tokens, customerId, password);
    }

    /** A GET as a customer, parsed; fails on any status but 200. */
    public JsonNode get(String region, String customerId, String password, String path) throws IOException, InterruptedException {
        BrokerSession.Reply answer;
        try {
            answer = session(region, customerId, password).get(path);
        } catch (IllegalStateException unreachable) {
            throw new IOException(unreachable.getMessage(), unreachable);
        }
        if (answer.status() != 200) {
            throw new IOException("GET " + path + " in " + region + " as " + customerId + ": HTTP " + answer.status() + " " + problemTitle(answer.raw()));
        }
        return answer.body();
    }

    /**
     * Every item of a paged list ({@code /api/orders}, {@code /api/transactions}) as {@code customerId}:
     * its pages one after another, following each {@code Link rel="next"} until none is named.
     */
    public List<JsonNode> getAll(String region, String customerId, String password, String path) throws IOException, InterruptedException {
        try {
            return session(region, customerId, password).getAll(path);
        } catch (IllegalStateException failed) {
            throw new IOException(failed.getMessage(), failed);
        }
    }

    private static final java.util.regex.Pattern NEXT = java.util.regex.Pattern.compile("<([^>]+)>\\s*;\\s*rel=\"next\"");

    /** The target of an RFC 8288 {@code rel="next"} link, if the header names one. */
    public static String nextOf(String link) {
        java.util.regex.Matcher m = NEXT.matcher(link);
        return m.find() ? m.group(1) : null;
    }

    /**
     * A GET as the operator (HTTP Basic, {@link BearerTokens#operator()}): the answer whatever its status.
     * {@code newConnection}: on a connection of its own, so a region's front may send it to another instance.
     */
    public Answer getAsOperator(String region, String path, boolean newConnection) throws IOException, InterruptedException {
        HttpClient client = http;
        if (newConnection) {
            HttpClient.Builder own = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10));
            trust.ifPresent(own::sslContext);
            client = own.build();
        }
        HttpResponse<String> r = client.send(request(region, path, BearerTokens.operator()).GET().build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body(), System.nanoTime());
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
        return problemField(body, "title");
    }

    /** The {@code detail} of a problem+json answer, or "" if the body is not one. */
    public static String problemDetail(String body) {
        return problemField(body, "detail");
    }

    private static String problemField(String body, String field) {
        if (body == null || body.isBlank() || body.charAt(0) != '{') {
            return "";
        }
        try {
            JsonNode value = JSON.readTree(body).get(field);
            return value == null || value.isNull() ? "" : value.asString();
        } catch (RuntimeException notJson) {
            return "";
        }
    }
}
