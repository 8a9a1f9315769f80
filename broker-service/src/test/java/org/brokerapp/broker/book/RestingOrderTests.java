package org.brokerapp.broker.book;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.PriceUnits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RestingOrderTests {

    private static final Instant PLACED = Instant.parse("2026-11-23T10:00:00Z");

    @ParameterizedTest(name = "{0} {1} at {2}, tick {3}: {4}")
    @CsvSource(delimiter = '|', textBlock = """
            BUY  | LIMIT | 100.00 | 100.0001 | false
            BUY  | LIMIT | 100.00 | 100.00   | true
            BUY  | LIMIT | 100.00 | 99.99    | true
            SELL | LIMIT | 100.00 | 99.9999  | false
            SELL | LIMIT | 100.00 | 100.00   | true
            SELL | LIMIT | 100.00 | 100.01   | true
            BUY  | STOP  | 100.00 | 99.9999  | false
            BUY  | STOP  | 100.00 | 100.00   | true
            BUY  | STOP  | 100.00 | 100.01   | true
            SELL | STOP  | 100.00 | 100.0001 | false
            SELL | STOP  | 100.00 | 100.00   | true
            SELL | STOP  | 100.00 | 99.99    | true
            """)
    void limitsTriggerAtTheirPriceOrBetterAndStopsAtTheirPriceOrWorse(Side side, OrderType type, BigDecimal price,
                                                                       BigDecimal tick, boolean triggered) {
        RestingOrder order = new RestingOrder(UUID.randomUUID(), "customer-1", "AAPL", side, type, 10, PriceUnits.of(price), PLACED);

        assertThat(order.triggeredBy(PriceUnits.of(tick))).isEqualTo(triggered);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            MARKET | 10 | 1000000 | an order waits as a LIMIT or a STOP, not a MARKET
            LIMIT  | 0  | 1000000 | quantity must be > 0, was 0
            STOP   | -1 | 1000000 | quantity must be > 0, was -1
            LIMIT  | 10 | 0       | triggerPrice must be > 0 units, was 0
            STOP   | 10 | -5      | triggerPrice must be > 0 units, was -5
            """)
    void anOrderThatCannotRestIsRefused(OrderType type, long quantity, long triggerPrice, String message) {
        assertThatThrownBy(() -> new RestingOrder(UUID.randomUUID(), "customer-1", "AAPL", Side.BUY, type, quantity, triggerPrice, PLACED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void everyFieldIsRequired() {
        UUID id = UUID.randomUUID();
        assertThatThrownBy(() -> new RestingOrder(null, "c", "AAPL", Side.BUY, OrderType.LIMIT, 1, 1, PLACED)).hasMessage("orderId");
        assertThatThrownBy(() -> new RestingOrder(id, null, "AAPL", Side.BUY, OrderType.LIMIT, 1, 1, PLACED)).hasMessage("customerId");
        assertThatThrownBy(() -> new RestingOrder(id, "c", null, Side.BUY, OrderType.LIMIT, 1, 1, PLACED)).hasMessage("symbol");
        assertThatThrownBy(() -> new RestingOrder(id, "c", "AAPL", null, OrderType.LIMIT, 1, 1, PLACED)).hasMessage("side");
        assertThatThrownBy(() -> new RestingOrder(id, "c", "AAPL", Side.BUY, null, 1, 1, PLACED)).hasMessage("type");
        assertThatThrownBy(() -> new RestingOrder(id, "c", "AAPL", Side.BUY, OrderType.LIMIT, 1, 1, null)).hasMessage("placedAt");
    }
}
