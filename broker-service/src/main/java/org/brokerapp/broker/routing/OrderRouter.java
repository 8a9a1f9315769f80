package org.brokerapp.broker.routing;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.Placement;
import org.brokerapp.broker.peer.PeerLinks;
import org.brokerapp.broker.peer.PeerResponse;
import org.brokerapp.broker.peer.RemoteFailure;
import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The calls a broker makes to another broker on an order's behalf, each one WAN round trip (or a
 * hop inside the region) over a connection kept open by {@link PeerLinks}, with no cross-region
 * database work: a placement forwarded to the customer's home region (or to the instance there
 * owning the account), a MARKET order sent by its owner to the region matching its symbol, and a
 * look-up at home of an order this region's replicas do not hold yet.
 * Calls to each peer region go through its own Resilience4j circuit breaker, bulkhead and retry, and
 * wait for an answer at most its time limiter's timeout (each named after the region, configured
 * under {@code resilience4j.*}); retrying is safe
 * because the order id names one order everywhere and the receiver never places or executes it twice.
 */
@Component
public class OrderRouter {

    public static final String MARKET_ORDERS = "/internal/market-orders";
    public static final String PLACEMENTS = "/internal/placements";
    public static final String ORDER_LOOKUPS = "/internal/order-lookups";
    private static final Duration IN_REGION_TIMEOUT = Duration.ofSeconds(6);
    /** While the pings probe a link (one a second): about when they tell. */
    private static final Duration PROBING_RETRY_AFTER = Duration.ofSeconds(2);
    private static final String MAY_BE_PLACED = "the order may have been placed there: retry with the same clientOrderId, which never places twice";

    private final PeerLinks links;
    private final JsonMapper json;
    private final CircuitBreakerRegistry circuitBreakers;
    private final TimeLimiterRegistry timeLimiters;
    private final BulkheadRegistry bulkheads;
    private final RetryRegistry retries;
    private final String region;

    public OrderRouter(PeerLinks links, JsonMapper json, CircuitBreakerRegistry circuitBreakers, TimeLimiterRegistry timeLimiters,
                       BulkheadRegistry bulkheads, RetryRegistry retries, BrokerProperties properties) {
        this.region = properties.region();
        this.links = links;
        this.json = json;
        this.circuitBreakers = circuitBreakers;
        this.timeLimiters = timeLimiters;
        this.bulkheads = bulkheads;
        this.retries = retries;
    }

    /**
     * Executes a MARKET order in {@code region}, which matches its symbol; that region's answer is the
     * answer. An attempt after one that timed out or failed is sent as a retry: the first may have
     * executed, so the executing region looks for the order before it executes (it may not be the
     * same instance that took the first).
     */
    public Placement execute(String region, RoutedMarketOrder order) {
        return placement(call(region, MARKET_ORDERS, attempt -> attempt == 1 ? order : order.asRetry(), order.customerId(),
                marketOrdersCannotExecute(order.symbol()), MAY_BE_PLACED));
    }

    /**
     * Refuses a MARKET order of {@code symbol} at once while {@code region}, which matches it, is
     * known unreachable (its circuit open or half-open): before the owner prices or reserves
     * anything, so a region cut costs a refusal no database read either.
     */
    public void requireReachable(String region, String symbol) {
        refuseWhileUnreachable(region, circuitBreakers.circuitBreaker(region), marketOrdersCannotExecute(symbol));
    }

    private static String marketOrdersCannotExecute(String symbol) {
        return symbol + " market orders cannot execute now; LIMIT and STOP orders are still accepted";
    }

    private static void refuseWhileUnreachable(String region, CircuitBreaker circuit, String whatFails) {
        switch (circuit.getState()) {
            case OPEN, FORCED_OPEN -> throw unreachable(region, false, openWait(circuit),
                    region + " is unreachable (circuit open after repeated failures): " + whatFails);
            // the pings probe a link that was cut; a customer's order is no probe: it would wait on the link if it is still cut
            case HALF_OPEN -> throw unreachable(region, false, PROBING_RETRY_AFTER,
                    region + " is unreachable (circuit half-open: its pings are probing the link): " + whatFails);
            default -> {
            }
        }
    }

    private static Duration openWait(CircuitBreaker circuit) {
        return Duration.ofMillis(circuit.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1));
    }

    /**
     * Executes a MARKET order at the instance of this region deciding on its symbol (a hop inside the
     * region). No answer is no refusal: that instance may have executed it, so the caller hears 504.
     */
    public Placement executeInRegion(String instance, RoutedMarketOrder order) {
        return inRegion(instance, MARKET_ORDERS, order, order.customerId(), () -> new OrderProblem.RegionTimedOut(region,
                "the broker instance matching " + order.symbol() + " in " + region + " did not answer in time; " + MAY_BE_PLACED));
    }

    /** Places an order in the customer's home region, which owns their account. */
    public Placement forward(String home, RoutedPlacement placement) {
        return placement(call(home, PLACEMENTS, attempt -> placement, placement.customerId(), "orders of " + placement.customerId() + " are decided in their home region " + home
                + " and cannot be placed from here now", MAY_BE_PLACED));
    }

    /**
     * Reads an order in the customer's home region, where its owner wrote it: an order placed here
     * and forwarded home is acknowledged here before its rows cross the WAN to this region's replicas.
     */
    public Optional<Order> lookUp(String home, OrderLookup lookup) {
        Answered answered = call(home, ORDER_LOOKUPS, attempt -> lookup, lookup.customerId(), "order " + lookup.orderId()
                + " is not in this region's replicas yet and its home region " + home + " cannot be asked now; retry", "retry");
        if (answered.answer() instanceof RoutedAnswer.Refused refused && refused.status() == HttpStatus.NOT_FOUND) {
            return Optional.empty();
        }
        return Optional.of(placement(answered).order());
    }

    /** Places an order at the instance of this region owning the customer's account (a hop inside the region). */
    public Placement forwardInRegion(String instance, RoutedPlacement placement) {
        return inRegion(instance, PLACEMENTS, placement, placement.customerId(), () -> new OrderProblem.NotOwner(placement.customerId(),
                "the broker instance owning " + placement.customerId() + "'s account did not answer; retry with the same clientOrderId, which never places twice"));
    }

    /** One call to another instance of this region ({@code passedOn}: it never passes the call on again); {@code unanswered} when it does not answer. */
    private Placement inRegion(String instance, String path, Object body, String customerId, Supplier<OrderProblem> unanswered) {
        try {
            PeerResponse response = links.post(region, URI.create(instance), path + "?passedOn=true", json.writeValueAsBytes(body), IN_REGION_TIMEOUT, customerId);
            return placement(new Answered(answer(region, response), false));
        } catch (IOException | RemoteFailure failed) {
            throw unanswered.get();
        }
    }

    /** A peer's answer, and whether it took more than one attempt. */
    private record Answered(RoutedAnswer answer, boolean retried) {
    }

    /** {@code bodyOfAttempt}: the body of the first attempt (1), and of any after it. */
    private Answered call(String region, String path, IntFunction<Object> bodyOfAttempt, String customerId, String whatFails, String ifUnanswered) {
        URI peer = links.peer(region).orElseThrow(() -> OrderProblem.RegionUnreachable.beforeSending(region, Duration.ofSeconds(60),
                "this broker has no route to " + region + " (broker.routing.peers." + region + " is not set)"));
        Duration timeout = timeLimiters.timeLimiter(region).getTimeLimiterConfig().getTimeoutDuration();
        CircuitBreaker circuit = circuitBreakers.circuitBreaker(region);
        refuseWhileUnreachable(region, circuit, whatFails);
        AtomicInteger attempts = new AtomicInteger();
        AtomicBoolean mayHaveArrived = new AtomicBoolean();
        Callable<RoutedAnswer> attempt = () -> {
            byte[] payload = json.writeValueAsBytes(bodyOfAttempt.apply(attempts.incrementAndGet()));
            try {
                return answer(region, links.post(region, peer, path, payload, timeout, customerId));
            } catch (Exception failed) {
                if (neverConnected(failed)) {
                    throw failed;
                }
                mayHaveArrived.set(true);
                if (failed instanceof SocketTimeoutException) {
                    // sent, and not answered within the time limiter's timeout (resilience4j.timelimiter)
                    throw new TimeoutException(region + " did not answer within " + timeout.toMillis() + " ms");
                }
                throw failed;
            }
        };
        Callable<RoutedAnswer> guarded = Retry.decorateCallable(retries.retry(region),
                CircuitBreaker.decorateCallable(circuit, Bulkhead.decorateCallable(bulkheads.bulkhead(region), attempt)));
        RoutedAnswer answer;
        try {
            answer = guarded.call();
        } catch (CallNotPermittedException open) {
            // it opened while this call was retrying
            throw unreachable(region, mayHaveArrived.get(), openWait(circuit), region + " is unreachable (circuit open after repeated failures): " + whatFails);
        } catch (BulkheadFullException full) {
            throw unreachable(region, mayHaveArrived.get(), Duration.ofSeconds(1), "too many orders in flight to " + region + "; retry");
        } catch (TimeoutException slow) {
            throw new OrderProblem.RegionTimedOut(region, region + " did not answer in time; " + ifUnanswered);
        } catch (Exception failed) {
            String detail = region + " could not be reached (" + failed.getClass().getSimpleName() + "); ";
            if (!mayHaveArrived.get()) {
                // no attempt got a connection (refused, or not made in time): nothing was sent, so nothing can have executed
                throw OrderProblem.RegionUnreachable.beforeSending(region, Duration.ofSeconds(1), detail + "nothing was sent; retry");
            }
            throw new OrderProblem.RegionUnreachable(region, Duration.ofSeconds(1), detail + ifUnanswered);
        }
        return new Answered(answer, attempts.get() > 1);
    }

    /**
     * A connection that was never made (refused, not made in time, none free in the pool in time) carried no
     * request; a failure on a made one (reset, closed, timed out) may have.
     */
    private static boolean neverConnected(Throwable failed) {
        for (Throwable t = failed; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException || t instanceof ConnectTimeoutException || t instanceof ConnectionRequestTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** Refused by this side's guards: before sending unless an earlier attempt of the call may have arrived (then it may have executed). */
    private static OrderProblem.RegionUnreachable unreachable(String region, boolean mayHaveArrived, Duration retryAfter, String detail) {
        return !mayHaveArrived ? OrderProblem.RegionUnreachable.beforeSending(region, retryAfter, detail)
                : new OrderProblem.RegionUnreachable(region, retryAfter, detail);
    }

    private static Placement placement(Answered answered) {
        RoutedAnswer answer = answered.answer();
        if (answer instanceof RoutedAnswer.Refused refused) {
            throw new OrderProblem.Relayed(refused.region(), refused.status(), refused.title(), refused.detail(), refused.retryAfter());
        }
        RoutedAnswer.Executed executed = (RoutedAnswer.Executed) answer;
        // after a retry, "it exists already" most likely means our own first attempt created it
        return new Placement(executed.order(), executed.created() || answered.retried());
    }

    /**
     * Placements and the order's own refusals are answers; anything else is the link or the peer failing. A 429 is the
     * customer's order rate, counted by their owner (no edge limiter stands before {@code /internal/**}): an answer about the
     * customer, relayed with its Retry-After, never a failure of the region that would open its circuit for everyone.
     */
    private RoutedAnswer answer(String peer, PeerResponse response) {
        int status = response.status();
        if (status == 200 || status == 201) {
            // an answer is read leniently (a peer of a later version may say more), a request strictly (system.StrictJson)
            return new RoutedAnswer.Executed(json.readerFor(Order.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(response.body()), status == 201);
        }
        if (status == 401 || status == 403) {
            throw new RemoteFailure(peer + " refused this broker's signature: broker.peers.public-keys there must hold this region's public key, and the clocks agree within broker.peers.max-skew");
        }
        if (status >= 400 && status < 500 || status == 503 && response.retryAfter().isPresent()) {
            JsonNode problem = json.readTree(response.body());
            return new RoutedAnswer.Refused(problem.path("region").asString(peer), HttpStatus.valueOf(status),
                    problem.path("title").asString("Refused by " + peer), problem.path("detail").asString(""),
                    response.retryAfter().map(s -> Duration.ofSeconds(Long.parseLong(s))));
        }
        throw new RemoteFailure(peer + " answered HTTP " + status);
    }
}
