package org.brokerapp.broker.security;

import java.security.Principal;
import java.time.Duration;

import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The edge's shield: at most {@code broker.security.orders-per-second} placements per customer and
 * broker instance (Resilience4j RateLimiter, one per customer, no waiting), beyond which {@code POST
 * /api/orders} is 429 with Retry-After before anything is read, forwarded or written. The customer's
 * limit itself is counted by their owner across every region and instance ({@code account.OrderRate}).
 */
@Configuration(proxyBeanMethods = false)
class OrderRateLimit implements WebMvcConfigurer, HandlerInterceptor {

    private final RateLimiterRegistry limiters;

    OrderRateLimit(SecurityProperties properties) {
        this.limiters = RateLimiterRegistry.of(RateLimiterConfig.custom().limitForPeriod(properties.ordersPerSecond())
                .limitRefreshPeriod(Duration.ofSeconds(1)).timeoutDuration(Duration.ZERO).build());
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/api/orders");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        Principal customer = request.getUserPrincipal();
        if ("POST".equals(request.getMethod()) && customer != null && !limiters.rateLimiter(customer.getName()).acquirePermission()) {
            throw new TooManyRequests("more orders per second than this customer may place; retry", Duration.ofSeconds(1));
        }
        return true;
    }
}
