package org.brokerapp.broker.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.book.RestingOrder;
import org.brokerapp.broker.core.PriceUnits;
import org.junit.jupiter.api.Test;

/** How far a triggered stop may trade, and what a gap beyond it leaves: a STOP_LIMIT its limit, a BUY STOP its collar. */
class StopBoundsTests {

    private static final StopBounds BOUNDS = new StopBounds(new org.brokerapp.broker.core.PriceCollar(new BigDecimal("0.05")));

    @Test
    void aStopLimitIsBoundByItsLimitOnEitherSide() {
        RestingOrder buy = stopLimit(Side.BUY, "100", "101");
        RestingOrder sell = stopLimit(Side.SELL, "100", "99");

        assertThat(BOUNDS.of(buy)).isEqualTo(units("101"));
        assertThat(BOUNDS.beyond(buy, BOUNDS.of(buy), units("101.01"))).isTrue();
        assertThat(BOUNDS.beyond(buy, BOUNDS.of(buy), units("101"))).isFalse();
        assertThat(BOUNDS.of(sell)).isEqualTo(units("99"));
        assertThat(BOUNDS.beyond(sell, BOUNDS.of(sell), units("98.99"))).isTrue();
        assertThat(BOUNDS.beyond(sell, BOUNDS.of(sell), units("99"))).isFalse();
    }

    @Test
    void aBuyStopIsBoundByItsCollarAndASellStopOrALimitByNothing() {
        assertThat(BOUNDS.of(order(Side.BUY, OrderType.STOP, "100"))).isEqualTo(units("105"));
        assertThat(BOUNDS.of(order(Side.SELL, OrderType.STOP, "100"))).isZero();
        assertThat(BOUNDS.of(order(Side.BUY, OrderType.LIMIT, "100"))).isZero();
    }

    @Test
    void aGappedStopLimitWaitsAsALimitAtItsLimitAndKeepsWhatItWasPlacedAs() {
        RestingOrder buy = stopLimit(Side.BUY, "100", "101");

        RestingOrder waiting = buy.limitAt(BOUNDS.of(buy));

        assertThat(waiting.type()).isEqualTo(OrderType.LIMIT);
        assertThat(waiting.placedAs()).isEqualTo(OrderType.STOP_LIMIT);
        assertThat(waiting.triggeredBy(units("101.01"))).isFalse();
        assertThat(waiting.triggeredBy(units("100.50"))).isTrue();
        assertThat(BOUNDS.of(waiting)).as("a limit now: no bound beyond its own").isZero();
    }

    private static RestingOrder stopLimit(Side side, String stop, String limit) {
        return RestingOrders.of(UUID.randomUUID(), "alice", "IBM", side, OrderType.STOP_LIMIT, 10, new BigDecimal(stop), new BigDecimal(limit),
                Instant.EPOCH, null);
    }

    private static RestingOrder order(Side side, OrderType type, String price) {
        return RestingOrders.of(UUID.randomUUID(), "alice", "IBM", side, type, 10, new BigDecimal(price), null, Instant.EPOCH, null);
    }

    private static long units(String price) {
        return PriceUnits.of(new BigDecimal(price));
    }
}
