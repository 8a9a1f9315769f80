package org.brokerapp.broker.peer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.brokerapp.broker.system.BrokerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
 */
@Component
public class PeerLinks {

    private static final Logger log = LoggerFactory.getLogger(PeerLinks.class);

    /** The customer a call acts for when it carries many customers' data (a batch of events). */
    public static final String MANY_CUSTOMERS = "*";

    private final HttpClient http;
    private final Map<String, URI> peers;
    private final PeerSigner signer;
    private final CircuitBreakerRegistry circuitBreakers;
    private final TimeLimiterRegistry timeLimiters;
    private final PeerSilence silence;
    private final Map<String, Long> lastAnswerNanos = new java.util.concurrent.ConcurrentHashMap<>();
    private final long startedNanos = System.nanoTime();

    public PeerLinks(BrokerProperties properties, PeerSigner signer, CircuitBreakerRegistry circuitBreakers, TimeLimiterRegistry timeLimiters,
                     SslBundles sslBundles) {
        this.signer = signer;
        HttpClient.Builder http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2));
        String bundle = properties.routing().sslBundle();
        if (!bundle.isBlank()) {
            http.sslContext(sslBundles.getBundle(bundle).createSslContext());
        }
        this.http = http.build();
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
     * POSTs JSON to a broker (a peer region's, or another instance of this region), signed as this
     * region acting for {@code customerId} ({@link #MANY_CUSTOMERS} for a batch); no resilience around it.
     */
    public java.util.concurrent.CompletableFuture<HttpResponse<String>> post(URI base, String path, byte[] json, Duration timeout, String customerId) {
        HttpRequest request = signer.post(base.resolve(path), json, customerId)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    /** How long the region's broker has not answered a ping (since this broker started, if it never did). */
    public Duration silentFor(String region) {
        return Duration.ofNanos(System.nanoTime() - lastAnswerNanos.getOrDefault(region, startedNanos));
    }

    public boolean isPeer(String region) {
        return peers.containsKey(region);
    }

    @Scheduled(fixedDelayString = "${broker.routing.ping-interval:1s}")
    void ping() {
        peers.forEach(this::ping);
    }

    private void ping(String region, URI peer) {
        CircuitBreaker circuit = circuitBreakers.circuitBreaker(region);
        if (!circuit.tryAcquirePermission()) {
            return;
        }
        long started = System.nanoTime();
        HttpRequest request = HttpRequest.newBuilder(peer.resolve("/actuator/health/liveness"))
                .timeout(timeLimiters.timeLimiter(region).getTimeLimiterConfig().getTimeoutDuration())
                .build();
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, error) -> {
            long took = System.nanoTime() - started;
            if (error == null && response.statusCode() == 200) {
                lastAnswerNanos.put(region, System.nanoTime());
                silence.answered(region);
                circuit.onSuccess(took, TimeUnit.NANOSECONDS);
            } else {
                circuit.onError(took, TimeUnit.NANOSECONDS, error != null ? error : new RemoteFailure(region + " liveness answered " + response.statusCode()));
                silence.unanswered(region, circuit);
            }
        });
    }
}
