package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.api.TimeInForce;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.Validity;
import org.brokerapp.broker.order.OrderRequests.PlaceOrderRequest;
import org.brokerapp.broker.session.ShippedCalendars;
import org.brokerapp.regions.SymbolUniverse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Numbers of every form are answered with a short 400, fast: the finding was a 50 MB answer after 9.7 s, and a 503. */
class OrderRequestsTests {

    private static final OrderRequests REQUESTS = new OrderRequests(SymbolUniverse.loadDefault(), ShippedCalendars.sessions());
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

        assertThat(order.limitPrice()).isEqualByComparingTo("300");
        assertThat(order.quantity()).isEqualTo(10);
    }

    @Test
    void withoutATimeInForceARestingOrderIsGoodTillCancelledAndAMarketOrderImmediate() {
        assertThat(REQUESTS.validate("alice", limit(null, null)).validity()).isEqualTo(Validity.GOOD_TILL_CANCELLED);
        assertThat(REQUESTS.validate("alice", new PlaceOrderRequest("c-1", "JPM", Side.BUY, OrderType.MARKET, BigDecimal.ONE, null, null))
                .validity()).isEqualTo(Validity.IMMEDIATE);
    }

    @Test
    void aDayOrderExpiresAtTheNextCloseOfItsSymbolsExchange() {
        Instant before = Instant.now();
        Validity day = REQUESTS.validate("alice", limit(TimeInForce.DAY, null)).validity();

        assertThat(day.timeInForce()).isEqualTo(TimeInForce.DAY);
        assertThat(day.expiresAt()).isEqualTo(ShippedCalendars.sessions().dayOrderExpiry("NYSE", before));
    }

    @Test
    void aGtdOrderKeepsItsExpiryToTheMillisecond() {
        Instant at = Instant.now().plus(Duration.ofHours(2)).plusNanos(123_456);

        assertThat(REQUESTS.validate("alice", limit(TimeInForce.GTD, at)).validity())
                .isEqualTo(new Validity(TimeInForce.GTD, at.truncatedTo(ChronoUnit.MILLIS)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            GTD without expireAt,          GTD,  ,       expireAt is required
            GTD in the past,               GTD,  -60,    expireAt must be in the future
            GTD beyond a year,             GTD,  4e7,    expireAt must be at most 366 days ahead
            expireAt on a DAY order,       DAY,  60,     expireAt is for GTD orders only
            IOC on a LIMIT order,          IOC,  ,       timeInForce IOC is taken on MARKET orders only
            FOK on a LIMIT order,          FOK,  ,       timeInForce FOK is taken on MARKET orders only
            """)
    void aTimeInForceThatCannotBeIsRefusedWithItsReason(String name, TimeInForce timeInForce, Double secondsAhead, String reason) {
        Instant expireAt = secondsAhead == null ? null : Instant.now().plusSeconds(secondsAhead.longValue());

        assertThatThrownBy(() -> REQUESTS.validate("alice", limit(timeInForce, expireAt))).isInstanceOf(OrderProblem.Invalid.class)
                .hasMessageStartingWith(reason);
    }

    @Test
    void aMarketOrderIsImmediateOrNothing() {
        assertThatThrownBy(() -> REQUESTS.validate("alice", new PlaceOrderRequest("c-1", "JPM", Side.BUY, OrderType.MARKET, BigDecimal.ONE,
                null, null, TimeInForce.DAY, null))).isInstanceOf(OrderProblem.Invalid.class).hasMessageContaining("IOC");
    }

    @Test
    void aStopLimitOrderTakesBothItsStopAndItsLimit() {
        PlaceOrder order = REQUESTS.validate("alice", new PlaceOrderRequest("c-1", "JPM", Side.BUY, OrderType.STOP_LIMIT, BigDecimal.TEN,
                new BigDecimal("301"), new BigDecimal("300")));

        assertThat(order.stopPrice()).isEqualByComparingTo("300");
        assertThat(order.limitPrice()).isEqualByComparingTo("301");
        assertThat(order.triggerPrice()).isEqualByComparingTo("300");
        assertThatThrownBy(() -> REQUESTS.validate("alice", new PlaceOrderRequest("c-1", "JPM", Side.BUY, OrderType.STOP_LIMIT, BigDecimal.TEN,
                null, new BigDecimal("300")))).isInstanceOf(OrderProblem.Invalid.class).hasMessage("limitPrice is required");
        assertThatThrownBy(() -> REQUESTS.validate("alice", new PlaceOrderRequest("c-1", "JPM", Side.BUY, OrderType.STOP, BigDecimal.TEN,
                new BigDecimal("301"), new BigDecimal("300")))).isInstanceOf(OrderProblem.Invalid.class).hasMessageContaining("has no limit");
        assertThatThrownBy(() -> REQUESTS.validate("alice", new PlaceOrderRequest("c-1", "JPM", Side.BUY, OrderType.STOP, BigDecimal.TEN,
                new BigDecimal("301"), null))).isInstanceOf(OrderProblem.Invalid.class).hasMessage("stopPrice is required");
    }

    private static PlaceOrderRequest limit(TimeInForce timeInForce, Instant expireAt) {
        return new PlaceOrderRequest("c-1", "JPM", Side.BUY, OrderType.LIMIT, BigDecimal.TEN, new BigDecimal("300.00"), null, timeInForce, expireAt);
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
