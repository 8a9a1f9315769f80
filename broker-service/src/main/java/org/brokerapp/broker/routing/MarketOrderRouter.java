package org.brokerapp.broker.routing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.brokerapp.broker.order.Order;
import org.brokerapp.broker.order.OrderProblem;
import org.brokerapp.broker.order.OrderService;
import org.brokerapp.broker.order.PlaceOrder;
import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends a MARKET order to its symbol's home region and returns the home's answer: one WAN round
 * trip over a connection kept open by {@link PeerLinks}, no cross-region database work. Each
 * peer region has its own Resilience4j time limiter, circuit breaker, bulkhead and retry (named
 * after the region, configured under {@code resilience4j.*}); retrying is safe because the home
 * executes an order id at most once.
 */
@Component
public class MarketOrderRouter {

    static final String PATH = "/internal/market-orders";

    private final HttpClient http;
    private final JsonMapper json;
    private final Map<String, URI> peers;
    private final String credential;
    private final String region;
    private final CircuitBreakerRegistry circuitBreakers;
    private final TimeLimiterRegistry timeLimiters;
    private final BulkheadRegistry bulkheads;
    private final RetryRegistry retries;

    public MarketOrderRouter(PeerLinks links, JsonMapper json, BrokerProperties properties, CircuitBreakerRegistry circuitBreakers,
                             TimeLimiterRegistry timeLimiters, BulkheadRegistry bulkheads, RetryRegistry retries) {
        this.http = links.http();
        this.json = json;
        this.peers = links.peers();
        this.credential = links.credential();
        this.region = properties.region();
        this.circuitBreakers = circuitBreakers;
        this.timeLimiters = timeLimiters;
        this.bulkheads = bulkheads;
        this.retries = retries;
    }

    public OrderService.Placement route(String home, PlaceOrder c) {
        URI peer = peers.get(home);
        if (peer == null) {
            throw new OrderProblem.RegionUnreachable(home, Duration.ofSeconds(60), "this broker has no route to " + home
                    + " (broker.routing.peers." + home + " is not set), where " + c.symbol() + " trades");
        }
        HttpRequest request = HttpRequest.newBuilder(peer.resolve(PATH))
                .timeout(timeLimiters.timeLimiter(home).getTimeLimiterConfig().getTimeoutDuration().plusSeconds(1))
                .header("Content-Type", "application/json")
                .header("Authorization", credential)
                .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(
                        new RoutedMarketOrder(c.customerId(), c.clientOrderId(), c.symbol(), c.side(), c.quantity(), region))))
                .build();
        CircuitBreaker circuit = circuitBreakers.circuitBreaker(home);
        TimeLimiter timeLimiter = timeLimiters.timeLimiter(home);
        AtomicInteger attempts = new AtomicInteger();
        Callable<RoutedAnswer> attempt = () -> {
            attempts.incrementAndGet();
            return answer(home, timeLimiter.executeFutureSupplier(() -> http.sendAsync(request, HttpResponse.BodyHandlers.ofString())));
        };
        Callable<RoutedAnswer> guarded = Retry.decorateCallable(retries.retry(home),
                CircuitBreaker.decorateCallable(circuit, Bulkhead.decorateCallable(bulkheads.bulkhead(home), attempt)));
        RoutedAnswer answer;
        try {
            answer = guarded.call();
        } catch (CallNotPermittedException open) {
            Duration wait = Duration.ofMillis(circuit.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1));
            throw new OrderProblem.RegionUnreachable(home, wait, home + " is unreachable (circuit open after repeated failures): "
                    + c.symbol() + " market orders cannot execute now; LIMIT and STOP orders are still accepted here");
        } catch (BulkheadFullException full) {
            throw new OrderProblem.RegionUnreachable(home, Duration.ofSeconds(1), "too many market orders in flight to " + home + "; retry");
        } catch (TimeoutException slow) {
            throw new OrderProblem.RegionTimedOut(home, home + " did not answer in time; the order may have executed there: "
                    + "retry with the same clientOrderId, which never executes twice");
        } catch (Exception failed) {
            throw new OrderProblem.RegionUnreachable(home, Duration.ofSeconds(1), home + " could not be reached (" + failed.getClass().getSimpleName()
                    + "); the order may have executed there: retry with the same clientOrderId, which never executes twice");
        }
        if (answer instanceof RoutedAnswer.Refused refused) {
            throw new OrderProblem.Relayed(home, refused.status(), refused.title(), refused.detail());
        }
        RoutedAnswer.Executed executed = (RoutedAnswer.Executed) answer;
        // after a retry, "it exists already" most likely means our own first attempt created it
        return new OrderService.Placement(executed.order(), executed.created() || attempts.get() > 1);
    }

    /** Executions and the order's own refusals are answers; anything else is the link or the peer failing. */
    private RoutedAnswer answer(String home, HttpResponse<String> response) {
        int status = response.statusCode();
        if (status == 200 || status == 201) {
            return new RoutedAnswer.Executed(json.readValue(response.body(), Order.class), status == 201);
        }
        if (status == 401 || status == 403) {
            throw new RemoteFailure(home + " refused this broker's routing credential: broker.routing.token must be the same in every region");
        }
        if (status >= 400 && status < 500 && status != 429) {
            JsonNode problem = json.readTree(response.body());
            return new RoutedAnswer.Refused(HttpStatus.valueOf(status), problem.path("title").asString("Refused by " + home),
                    problem.path("detail").asString(""));
        }
        throw new RemoteFailure(home + " answered HTTP " + status);
    }

}
