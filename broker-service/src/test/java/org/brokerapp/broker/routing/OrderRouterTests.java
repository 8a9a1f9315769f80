package org.brokerapp.broker.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.math.BigDecimal;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.peer.PeerLinks;
import org.brokerapp.broker.system.BrokerProperties;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The router's own guards, before anything goes on the link (stood in for here: what crosses it is
 * in {@code MarketOrderRoutingIT}, against the real two-region stack with the WAN emulated).
 */
class OrderRouterTests {

    private static final String HOME = "us-east-1";

    private final PeerLinks links = mock(PeerLinks.class);
    private final CircuitBreakerRegistry circuits = CircuitBreakerRegistry.ofDefaults();
    private final OrderRouter router;

    OrderRouterTests() {
        BrokerProperties properties = mock(BrokerProperties.class);
        when(properties.region()).thenReturn("ap-southeast-2");
        when(links.peer(HOME)).thenReturn(Optional.of(URI.create("http://127.1.1.3:8080")));
        router = new OrderRouter(links, JsonMapper.builder().build(), circuits, TimeLimiterRegistry.ofDefaults(), BulkheadRegistry.ofDefaults(),
                // the default retry waits 500 ms between attempts: the same three attempts, without the wait
                RetryRegistry.of(RetryConfig.custom().maxAttempts(3).waitDuration(Duration.ofMillis(10)).build()), properties);
    }

    @Test
    void whileTheCircuitIsHalfOpenAnOrderIsRefusedBeforeItIsSentTheProbingIsThePings() throws Exception {
        circuits.circuitBreaker(HOME).transitionToOpenState();
        circuits.circuitBreaker(HOME).transitionToHalfOpenState();

        assertThatThrownBy(() -> router.execute(HOME, order()))
                .isInstanceOfSatisfying(OrderProblem.RegionUnreachable.class, refused -> {
                    assertThat(refused.sent()).as("nothing sent: the owner gives the cash back at once").isFalse();
                    assertThat(refused.getMessage()).contains("half-open");
                });
        verify(links, never()).post(anyString(), any(), anyString(), any(), any(), anyString());
    }

    @Test
    void whileTheCircuitIsOpenAnOrderIsRefusedBeforeItIsSent() throws Exception {
        circuits.circuitBreaker(HOME).transitionToOpenState();

        assertThatThrownBy(() -> router.execute(HOME, order()))
                .isInstanceOfSatisfying(OrderProblem.RegionUnreachable.class, refused -> assertThat(refused.sent()).isFalse());
        verify(links, never()).post(anyString(), any(), anyString(), any(), any(), anyString());
    }

    @Test
    void aRegionIsRequiredReachableOnlyWhileItsCircuitIsClosed() throws Exception {
        router.requireReachable(HOME, "IBM");

        circuits.circuitBreaker(HOME).transitionToOpenState();
        assertThatThrownBy(() -> router.requireReachable(HOME, "IBM"))
                .isInstanceOfSatisfying(OrderProblem.RegionUnreachable.class, refused -> {
                    assertThat(refused.sent()).isFalse();
                    assertThat(refused.getMessage()).contains("IBM market orders cannot execute now");
                });

        circuits.circuitBreaker(HOME).transitionToHalfOpenState();
        assertThatThrownBy(() -> router.requireReachable(HOME, "IBM")).isInstanceOf(OrderProblem.RegionUnreachable.class);

        circuits.circuitBreaker(HOME).transitionToClosedState();
        router.requireReachable(HOME, "IBM");
        verify(links, never()).post(anyString(), any(), anyString(), any(), any(), anyString());
    }

    @Test
    void anOrderWhoseEveryAttemptFoundTheConnectionRefusedWasNeverSent() throws Exception {
        when(links.post(anyString(), any(), anyString(), any(), any(), anyString()))
                .thenThrow(new ConnectException("Connection refused"));

        assertThatThrownBy(() -> router.execute(HOME, order()))
                .isInstanceOfSatisfying(OrderProblem.RegionUnreachable.class, refused -> {
                    assertThat(refused.sent()).as("no connection, no request: the owner gives the cash back at once").isFalse();
                    assertThat(refused.getMessage()).contains("nothing was sent");
                });
        verify(links, times(3)).post(anyString(), any(), anyString(), any(), any(), anyString());
    }

    @Test
    void anOrderWhoseConnectionBrokeMayHaveArrived() throws Exception {
        when(links.post(anyString(), any(), anyString(), any(), any(), anyString()))
                .thenThrow(new ConnectException("Connection refused"))
                .thenThrow(new NoHttpResponseException("127.0.2.3:8080 failed to respond"));

        assertThatThrownBy(() -> router.execute(HOME, order()))
                .isInstanceOfSatisfying(OrderProblem.RegionUnreachable.class, refused ->
                        assertThat(refused.sent()).as("the second attempt had a connection: it may have executed, a retry tells").isTrue());
    }

    @Test
    void anOrderNotAnsweredInTimeMayHaveExecutedThere() throws Exception {
        when(links.post(anyString(), any(), anyString(), any(), any(), anyString())).thenThrow(new SocketTimeoutException("Read timed out"));

        assertThatThrownBy(() -> router.execute(HOME, order()))
                .isInstanceOf(OrderProblem.RegionTimedOut.class)
                .hasMessageContaining("did not answer in time");
    }

    @Test
    void anOrderThatGotNoConnectionInTimeWasNeverSent() throws Exception {
        when(links.post(anyString(), any(), anyString(), any(), any(), anyString())).thenThrow(new ConnectTimeoutException("Connect to 127.1.1.3:8080 timed out"));

        assertThatThrownBy(() -> router.execute(HOME, order()))
                .isInstanceOfSatisfying(OrderProblem.RegionUnreachable.class, refused ->
                        assertThat(refused.sent()).as("no connection in time, no request").isFalse());
    }

    private static RoutedMarketOrder order() {
        return new RoutedMarketOrder("alice", "m-1", "IBM", Side.BUY, 5, "ap-southeast-2", new BigDecimal("150.00"), false);
    }
}
