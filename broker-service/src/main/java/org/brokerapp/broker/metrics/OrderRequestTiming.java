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
 * Times each {@code POST /api/orders} from the first filter to its answer, so that a placement's
 * time splits into the client's side (connection, queueing before the container hands the request
 * over), this broker's filters and body handling, and the owner's work ({@link LatencyRecorder}).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class OrderRequestTiming extends OncePerRequestFilter {

    private final BrokerMetrics metrics;

    OrderRequestTiming(BrokerMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !("POST".equals(request.getMethod()) && "/api/orders".equals(request.getRequestURI()));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws ServletException, IOException {
        long started = System.nanoTime();
        try {
            chain.doFilter(request, response);
        } finally {
            metrics.orderRequest(Duration.ofNanos(System.nanoTime() - started));
        }
    }
}
