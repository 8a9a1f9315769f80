package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Duration;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.order.OrderRequests.PlaceOrderRequest;
import org.brokerapp.regions.SymbolUniverse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Numbers of every form are answered with a short 400, fast: the finding was a 50 MB answer after 9.7 s, and a 503. */
class OrderRequestsTests {

    private static final OrderRequests REQUESTS = new OrderRequests(SymbolUniverse.loadDefault());
    private static final Duration FAST = Duration.ofSeconds(1); // generous: the old code took 9.7 s on 1e-50000000

    @ParameterizedTest(name = "limitPrice {0}")
    @CsvSource(textBlock = """
            1e-50000000
            1e-2147483647
            1e+2147483647
            -1e-2147483647
            1e50000000
            123456789012345678901234567890.5
            0.000000000000000000000000000000000000000000001
            100.00001
            1e14
            """)
    void everyFormOfABadPriceIsABoundedRefusal(String number) {
        assertBoundedRefusal(new PlaceOrderRequest("c-1", "JPM", Side.BUY, OrderType.LIMIT, BigDecimal.ONE, new BigDecimal(number), null), "limitPrice");
    }

    @ParameterizedTest(name = "quantity {0}")
    @CsvSource(textBlock = """
            1e-2147483647
            1e+2147483647
            -1e+2147483647
            1e-50000000
            1.5
            1000000001
            1e10
            """)
    void everyFormOfABadQuantityIsABoundedRefusal(String number) {
        assertBoundedRefusal(new PlaceOrderRequest("c-1", "JPM", Side.BUY, OrderType.LIMIT, new BigDecimal(number), BigDecimal.ONE, null), "quantity");
    }

    @Test
    void aPriceWithTrailingZerosBeyondFourDecimalsIsStillAPrice() {
        PlaceOrder order = REQUESTS.validate("alice", new PlaceOrderRequest("c-1", "JPM", Side.BUY, OrderType.LIMIT, new BigDecimal("1E+1"),
                new BigDecimal("300.000000"), null));

        assertThat(order.price()).isEqualByComparingTo("300");
        assertThat(order.quantity()).isEqualTo(10);
    }

    private static void assertBoundedRefusal(PlaceOrderRequest request, String field) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> REQUESTS.validate("alice", request))
                .isInstanceOf(OrderProblem.Invalid.class)
                .hasMessageStartingWith(field)
                .satisfies(e -> assertThat(e.getMessage().length()).as(e.getMessage()).isLessThan(160));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(FAST);
    }
}
