package org.brokerapp.broker.metrics;

import java.io.IOException;
import java.time.Duration;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Times each LIMIT or STOP {@code POST /api/orders} from the first filter to its answer, so that a
 * placement's time splits into the client's side (connection, queueing before the container hands
 * the request over), this broker's filters and body handling, and the owner's work
 * ({@link LatencyRecorder}). MARKET orders have their own timer ({@code broker_market_orders_seconds});
 * here, the ones refused because their home region could not be reached, so that a region cut's
 * "refused fast" is measured where the broker's part of it ends, apart from the client's queueing;
 * and the ones executed in another region, at both ends ({@code POST /internal/market-orders} where
 * it executes), so that the time a routed order takes beyond the round trip splits by broker.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class OrderRequestTiming extends OncePerRequestFilter {

    private static final String STARTED = OrderRequestTiming.class.getName() + ".started";
    private static final String RESTING = OrderRequestTiming.class.getName() + ".resting";
    private static final String MARKET = OrderRequestTiming.class.getName() + ".market";
    private static final String ROUTED = OrderRequestTiming.class.getName() + ".routed";
    private static final String EXECUTIONS = "/internal/market-orders";

    /**
     * Marks the request as a LIMIT or STOP placement (the filter cannot tell before the body is read)
     * and times its way to the controller: the filters (authentication, limits), the body's parsing and validation.
     */
    public static void resting(HttpServletRequest request, BrokerMetrics metrics) {
        request.setAttribute(RESTING, Boolean.TRUE);
        if (request.getAttribute(STARTED) instanceof Long started) {
            metrics.orderRequestToController(Duration.ofNanos(System.nanoTime() - started));
        }
    }

    /** Marks the request as a MARKET order: timed if it is refused as unreachable (503). */
    public static void market(HttpServletRequest request) {
        request.setAttribute(MARKET, Boolean.TRUE);
    }

    /** Marks a MARKET order as answered from another region (executed there): timed as a routed order. */
    public static void routed(HttpServletRequest request) {
        request.setAttribute(ROUTED, Boolean.TRUE);
    }

    private final BrokerMetrics metrics;

    OrderRequestTiming(BrokerMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !("POST".equals(request.getMethod()) && ("/api/orders".equals(request.getRequestURI()) || EXECUTIONS.equals(request.getRequestURI())));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws ServletException, IOException {
        long started = System.nanoTime();
        request.setAttribute(STARTED, started);
        try {
            chain.doFilter(request, response);
        } finally {
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            boolean answered = response.getStatus() < 300;
            if (EXECUTIONS.equals(request.getRequestURI())) {
                if (answered) {
                    metrics.marketExecutionRequest(took);
                }
            } else if (request.getAttribute(RESTING) != null) {
                metrics.orderRequest(took);
            } else if (request.getAttribute(ROUTED) != null && answered) {
                metrics.marketRoutedRequest(took);
            } else if (request.getAttribute(MARKET) != null && response.getStatus() == HttpServletResponse.SC_SERVICE_UNAVAILABLE) {
                metrics.marketOrderRefused(took);
            }
        }
    }
}
