package org.brokerapp.broker.peer;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.brokerapp.broker.system.BrokerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The connections to the other regions' brokers. One HTTP client keeps connections open across
 * the WAN (HTTP/1.1 keep-alive), so a routed order pays one round trip, not a TCP handshake too; a
 * ping per peer every {@code broker.routing.ping-interval} keeps one warm and goes through the
 * peer's circuit breaker, so the breaker opens on a cut without customer traffic (after a few
 * unanswered pings in a row, {@link PeerSilence}) and closes by itself after the heal: while it is
 * half-open the pings are its only probes ({@code OrderRouter} refuses orders before sending).
 * Peers named by {@code https} URLs are trusted by {@code broker.routing.ssl-bundle}.
 * <p>
 * The client is a blocking one (Apache HttpClient, classic): the thread that sends a call reads its
 * answer from the socket itself. Every caller waits for the answer anyway (a request thread for its
 * routed order, a relay for its batch), and the JDK's asynchronous client handed each answer from its
 * selector thread to a worker and on to the waiting thread: 1.6-1.8 ms more per call at p50, measured
 * side by side (docs/benchmarks/log/2026-11-27-blocking-peer-client.md).
 */
@Component
public class PeerLinks implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(PeerLinks.class);

    /** The customer a call acts for when it carries many customers' data (a batch of events). */
    public static final String MANY_CUSTOMERS = "*";

    /** Below Tomcat's keep-alive timeout (60 s), so a pooled connection is closed here before the peer closes it under a call. */
    private static final TimeValue IDLE_CONNECTION_EVICTION = TimeValue.ofSeconds(30);

    private final CloseableHttpClient http;
    private final ExecutorService pings = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "peer-ping");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, URI> peers;
    private final PeerSigner signer;
    private final PeerVerifier verifier;
    private final CircuitBreakerRegistry circuitBreakers;
    private final TimeLimiterRegistry timeLimiters;
    private final PeerSilence silence;
    private final Map<String, Long> lastAnswerNanos = new java.util.concurrent.ConcurrentHashMap<>();
    private final long startedNanos = System.nanoTime();

    public PeerLinks(BrokerProperties properties, PeerSigner signer, PeerVerifier verifier, CircuitBreakerRegistry circuitBreakers,
                     TimeLimiterRegistry timeLimiters, SslBundles sslBundles) {
        this.signer = signer;
        this.verifier = verifier;
        PoolingHttpClientConnectionManagerBuilder connections = PoolingHttpClientConnectionManagerBuilder.create()
                // as many connections to a peer as calls the bulkhead lets through (resilience4j.bulkhead: 200)
                .setMaxConnPerRoute(256)
                .setMaxConnTotal(1024)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.ofSeconds(2))
                        // a connection idle this long is checked before a call goes out on it (the peer may have closed it); the
                        // check waits 1 ms for a read, so not sooner: the pool hands out the connection used last, which the pings
                        // keep in use every second; a call on a connection the peer closed unseen gets no answer and is retried (safely:
                        // an order id names one order at the receiver)
                        .setValidateAfterInactivity(TimeValue.ofSeconds(10))
                        .build());
        String bundle = properties.routing().sslBundle();
        if (!bundle.isBlank()) {
            connections.setTlsSocketStrategy(new DefaultClientTlsStrategy(sslBundles.getBundle(bundle).createSslContext()));
        }
        this.http = HttpClients.custom()
                .setConnectionManager(connections.build())
                .evictIdleConnections(IDLE_CONNECTION_EVICTION)
                // the callers retry (Resilience4j), knowing which calls may be sent again
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableAuthCaching()
                .build();
        this.peers = properties.routing().peers().entrySet().stream()
                .filter(e -> !e.getKey().equals(properties.region()))
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> URI.create(e.getValue())));
        this.circuitBreakers = circuitBreakers;
        this.timeLimiters = timeLimiters;
        this.silence = new PeerSilence(properties.routing().unansweredPingsToOpen());
        // created up front, so that health and metrics show every peer from the start
        peers.keySet().forEach(circuitBreakers::circuitBreaker);
        peers.forEach((region, uri) -> log.info("market orders for {} symbols are routed to {}", region, uri));
    }

    /** The base URL of a peer region's broker, if this broker has a route there. */
    public java.util.Optional<URI> peer(String region) {
        return java.util.Optional.ofNullable(peers.get(region));
    }

    /**
     * POSTs JSON to a broker of region {@code destination} (a peer region's, or another instance of this
     * region), signed for it as this region acting for {@code customerId} ({@link #MANY_CUSTOMERS} for a batch), and waits up to
     * {@code timeout} for its answer; no resilience around it.
     *
     * @throws java.net.SocketTimeoutException no answer in time (the call may have arrived)
     * @throws IOException                     no connection, or it failed
     */
    public PeerResponse post(String destination, URI base, String path, byte[] json, Duration timeout, String customerId) throws IOException {
        URI uri = base.resolve(path);
        HttpPost post = new HttpPost(uri);
        Map<String, String> signed = signer.headers(uri, destination, json, customerId);
        signed.forEach(post::addHeader);
        post.setEntity(new ByteArrayEntity(json, ContentType.APPLICATION_JSON));
        post.setConfig(waitingAtMost(Timeout.of(timeout)));
        return http.execute(post, response -> {
            byte[] body = response.getEntity() == null ? new byte[0] : EntityUtils.toByteArray(response.getEntity());
            Header signature = response.getFirstHeader(PeerSignature.ANSWER_SIGNATURE);
            if (!verifier.answeredBy(destination, signed.get(PeerSignature.NONCE), response.getCode(), body, signature == null ? null : signature.getValue())) {
                // as good as no answer: the caller treats it as a call that may have arrived
                throw new UnsignedAnswer(destination + " answered HTTP " + response.getCode() + " without its signature over this call's answer");
            }
            return new PeerResponse(response.getCode(), new String(body, StandardCharsets.UTF_8),
                    java.util.Optional.ofNullable(response.getFirstHeader("Retry-After")).map(Header::getValue));
        });
    }

    /** An answer not signed by the region called (a broker without this version, or someone in between): no answer at all. */
    public static final class UnsignedAnswer extends IOException {
        UnsignedAnswer(String message) {
            super(message);
        }
    }

    /** How long the region's broker has not answered a ping (since this broker started, if it never did). */
    public Duration silentFor(String region) {
        return Duration.ofNanos(System.nanoTime() - lastAnswerNanos.getOrDefault(region, startedNanos));
    }

    public boolean isPeer(String region) {
        return peers.containsKey(region);
    }

    /** Each ping on a thread of its own: one that waits on a cut link must not hold back the next, nor the other peers'. */
    @Scheduled(fixedDelayString = "${broker.routing.ping-interval:1s}")
    void ping() {
        peers.forEach((region, uri) -> pings.execute(() -> ping(region, uri)));
    }

    private void ping(String region, URI peer) {
        CircuitBreaker circuit = circuitBreakers.circuitBreaker(region);
        if (!circuit.tryAcquirePermission()) {
            return;
        }
        long started = System.nanoTime();
        HttpGet get = new HttpGet(peer.resolve("/actuator/health/liveness"));
        Timeout timeout = Timeout.of(timeLimiters.timeLimiter(region).getTimeLimiterConfig().getTimeoutDuration());
        get.setConfig(waitingAtMost(timeout));
        Throwable failure;
        try {
            int status = http.execute(get, response -> {
                EntityUtils.consume(response.getEntity());
                return response.getCode();
            });
            failure = status == 200 ? null : new RemoteFailure(region + " liveness answered " + status);
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
        long took = System.nanoTime() - started;
        if (failure == null) {
            lastAnswerNanos.put(region, System.nanoTime());
            silence.answered(region);
            circuit.onSuccess(took, TimeUnit.NANOSECONDS);
        } else {
            circuit.onError(took, TimeUnit.NANOSECONDS, failure);
            silence.unanswered(region, circuit);
        }
    }

    /** A call that waits at most {@code timeout} for a pooled connection, and as long again for its answer. */
    private static RequestConfig waitingAtMost(Timeout timeout) {
        return RequestConfig.custom().setConnectionRequestTimeout(timeout).setResponseTimeout(timeout).build();
    }

    @Override
    public void destroy() throws IOException {
        pings.shutdownNow();
        http.close(CloseMode.IMMEDIATE);
    }
}
