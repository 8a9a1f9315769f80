package org.brokerapp.broker.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.junit.jupiter.api.Test;

/** The owner's in-memory account: reservations, fills and cancels as the ledger's fold would count them. */
class AccountTests {

    private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");

    private static Order buy(String id, long quantity, String limit) {
        BigDecimal price = new BigDecimal(limit);
        return new Order(UUID.nameUUIDFromBytes(id.getBytes()), "c", id, "IBM", "NYSE", Side.BUY, OrderType.LIMIT, quantity, price, null,
                price.multiply(BigDecimal.valueOf(quantity)), OrderStatus.OPEN, "us-east-1", T, null, null, null, null);
    }

    private static Order sell(String id, long quantity) {
        return new Order(UUID.nameUUIDFromBytes(id.getBytes()), "c", id, "IBM", "NYSE", Side.SELL, OrderType.LIMIT, quantity, BigDecimal.TEN, null,
                BigDecimal.ZERO, OrderStatus.OPEN, "us-east-1", T, null, null, null, null);
    }

    private static Account account(String cash, Map<String, Long> positions, Order... orders) {
        return Account.of(new LedgerSnapshot("c", new BigDecimal(cash), positions, List.of(orders)));
    }

    @Test
    void aReservationThatDoesNotFitIsRefusedAndChangesNothing() {
        Account account = account("1000.00", Map.of());

        assertThat(account.reserve(buy("a", 6, "100"), new BigDecimal("600"))).isEmpty();
        assertThat(account.reserve(buy("b", 6, "100"), new BigDecimal("600"))).hasValueSatisfying(why -> assertThat(why).contains("400"));

        assertThat(account.availableCash()).isEqualByComparingTo("400");
        assertThat(account.find(UUID.nameUUIDFromBytes("b".getBytes()))).isEmpty();
    }

    @Test
    void aFillReleasesTheReservationAndPaysItsPriceOnceHoweverOftenItIsReported() {
        Account account = account("1000.00", Map.of());
        Order order = buy("a", 5, "100");
        account.reserve(order, order.reservedCash());
        account.writeEnded(order.orderId());
        account.written(order.orderId());

        account.filled(order.orderId(), order.side(), order.quantity(), new BigDecimal("98.50"), T, "us-east-1");
        account.filled(order.orderId(), order.side(), order.quantity(), new BigDecimal("98.50"), T, "us-east-1");

        assertThat(account.availableCash()).isEqualByComparingTo("507.50");
        assertThat(account.holdings().positions()).containsEntry("IBM", 5L);
        assertThat(account.find(order.orderId())).hasValueSatisfying(o -> assertThat(o.status()).isEqualTo(OrderStatus.FILLED));
    }

    @Test
    void aCancelReleasesAndAFillAfterItChangesNothing() {
        Account account = account("1000.00", Map.of("IBM", 10L));
        Order order = sell("s", 4);
        account.reserve(order, BigDecimal.ZERO);
        assertThat(account.availableShares("IBM")).isEqualTo(6);

        account.closedUnfilled(order.orderId(), OrderStatus.CANCELLED, T);
        account.filled(order.orderId(), order.side(), order.quantity(), BigDecimal.TEN, T, "us-east-1");

        assertThat(account.availableShares("IBM")).isEqualTo(10);
        assertThat(account.availableCash()).isEqualByComparingTo("1000");
    }

    @Test
    void aPlacementOfUnknownOutcomeIsPendingAndDueToBeSettledOnlyOnceNoWriteIsGoingOn() {
        Account account = account("1000.00", Map.of("IBM", 10L));
        Order buy = buy("unknown-buy", 3, "100");
        Order sell = sell("unknown-sell", 4);
        account.reserve(buy, buy.reservedCash());
        account.reserve(sell, BigDecimal.ZERO);
        Instant later = Instant.now().plusSeconds(1);

        assertThat(account.unsettledBefore(later)).as("both still being written").isEmpty();
        account.writeEnded(buy.orderId());
        account.writeEnded(sell.orderId());

        assertThat(account.unsettledBefore(later)).extracting(Order::orderId).containsExactlyInAnyOrder(buy.orderId(), sell.orderId());
        assertThat(account.unsettledBefore(Instant.now().minusSeconds(60))).as("reserved too lately to be due").isEmpty();
        assertThat(account.pending()).extracting(Pending::orderId, Pending::reservedCash, Pending::reservedShares)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(buy.orderId(), new BigDecimal("300"), 0L),
                        org.assertj.core.groups.Tuple.tuple(sell.orderId(), BigDecimal.ZERO, 4L));

        account.written(buy.orderId());
        account.closedUnfilled(sell.orderId(), OrderStatus.CANCELLED, T);

        assertThat(account.pending()).isEmpty();
        assertThat(account.unsettledBefore(later)).isEmpty();
    }

    @Test
    void closedOrdersLeaveMemoryAfterTheRetentionWhileOpenAndUnsettledOnesStay() {
        Order filledBefore = new Order(UUID.nameUUIDFromBytes("old".getBytes()), "c", "old", "IBM", "NYSE", Side.BUY, OrderType.LIMIT, 1,
                BigDecimal.TEN, null, BigDecimal.TEN, OrderStatus.FILLED, "us-east-1", T, BigDecimal.TEN, T, "us-east-1", null);
        Order open = buy("open", 1, "10");
        Account account = account("1000.00", Map.of(), filledBefore, open);
        assertThat(account.find(filledBefore.orderId())).as("a closed order read at load stays in the ledger only").isEmpty();
        assertThat(account.mayHavePlaced(filledBefore.orderId())).isTrue();

        Order cancelled = buy("cancelled", 1, "10");
        Order unsettledFill = buy("unsettled", 1, "10");
        account.reserve(cancelled, cancelled.reservedCash());
        account.writeEnded(cancelled.orderId());
        account.written(cancelled.orderId());
        account.reserve(unsettledFill, unsettledFill.reservedCash());
        account.writeEnded(unsettledFill.orderId());
        account.closedUnfilled(cancelled.orderId(), OrderStatus.CANCELLED, T);
        account.filled(unsettledFill.orderId(), Side.BUY, 1, BigDecimal.TEN, T, "us-east-1");

        account.forgetClosedBefore(System.nanoTime() - 60_000_000_000L);
        assertThat(account.ordersInMemory()).as("closed just now: still within the retention").isEqualTo(3);

        account.forgetClosedBefore(System.nanoTime() + 1);
        assertThat(account.find(cancelled.orderId())).isEmpty();
        assertThat(account.find(unsettledFill.orderId())).as("its write not known durable: kept until settled").isPresent();
        assertThat(account.find(open.orderId())).isPresent();
        assertThat(account.mayHavePlaced(cancelled.orderId())).isTrue();
        assertThat(account.mayHavePlaced(UUID.nameUUIDFromBytes("never".getBytes()))).isFalse();

        account.written(unsettledFill.orderId());
        account.forgetClosedBefore(System.nanoTime() + 1);
        assertThat(account.ordersInMemory()).as("the open order only").isEqualTo(1);
        assertThat(account.holdings().positions()).as("the fill read at load and the one settled now").containsEntry("IBM", 2L);
    }

    @Test
    void theLedgersFoldAndTheAccountAgree() {
        Order open = buy("open", 2, "50");
        Order filled = new Order(UUID.randomUUID(), "c", "f", "IBM", "NYSE", Side.BUY, OrderType.LIMIT, 3, BigDecimal.TEN, null, new BigDecimal("30"),
                OrderStatus.FILLED, "us-east-1", T, new BigDecimal("9.00"), T, "us-east-1", null);
        LedgerSnapshot snapshot = new LedgerSnapshot("c", new BigDecimal("1000.00"), Map.of("IBM", 1L), List.of(open, filled));

        Account account = Account.of(snapshot);

        assertThat(account.holdings()).isEqualTo(snapshot.holdings());
        assertThat(account.availableCash()).isEqualByComparingTo(snapshot.holdings().availableCash());
    }

    @Test
    void anUnsettledOrderKeepsItsReservationAndIsWrittenOnlyOnceAtATime() {
        Account account = account("1000.00", Map.of());
        Order order = buy("a", 5, "100");
        account.reserve(order, order.reservedCash());

        assertThat(account.isUnsettled(order.orderId())).isTrue();
        assertThat(account.isBeingWritten(order.orderId())).isTrue();
        account.writeEnded(order.orderId());
        assertThat(account.isBeingWritten(order.orderId())).isFalse();
        assertThat(account.availableCash()).as("the outcome is unknown: still reserved").isEqualByComparingTo("500");
        assertThat(account.writesInFlight()).isZero();
    }

    @Test
    void aFillReportedBeforeItsOrdersWriteIsDurablePaysNowAndBringsItsSharesOnlyOnceWritten() {
        Account account = account("1000.00", Map.of());
        Order order = buy("a", 5, "100");
        account.reserve(order, order.reservedCash());

        // the event went out with the writes; the matcher filled it before the owner heard back from Cassandra
        account.filled(order.orderId(), order.side(), order.quantity(), new BigDecimal("98.50"), T, "us-east-1");
        assertThat(account.availableCash()).as("the fill's price is paid at once, the reservation released").isEqualByComparingTo("507.50");
        assertThat(account.availableShares("IBM")).as("the shares wait for the order's own write").isZero();
        assertThat(account.isUnsettled(order.orderId())).as("a retry still writes it").isTrue();

        account.writeEnded(order.orderId());
        account.written(order.orderId());
        account.written(order.orderId());
        assertThat(account.availableShares("IBM")).isEqualTo(5);
        assertThat(account.availableCash()).isEqualByComparingTo("507.50");
        assertThat(account.holdings().positions()).containsEntry("IBM", 5L);
    }

    @Test
    void aSellFilledBeforeItsWriteIsDurableGivesUpItsSharesAtOnceAndItsCashOnlyOnceWritten() {
        Account account = account("0.00", Map.of("IBM", 10L));
        Order order = sell("s", 4);
        account.reserve(order, BigDecimal.ZERO);

        account.filled(order.orderId(), order.side(), order.quantity(), new BigDecimal("50"), T, "us-east-1");
        assertThat(account.availableShares("IBM")).isEqualTo(6);
        assertThat(account.availableCash()).as("the proceeds wait for the order's own write").isEqualByComparingTo("0");

        account.writeEnded(order.orderId());
        account.written(order.orderId());
        assertThat(account.availableCash()).isEqualByComparingTo("200");
    }

    @Test
    void decisionsTheLedgerHoldsAheadOfTheirEventsAreAppliedOnceAndTheEventsThenChangeNothing() {
        Account account = account("1000.00", Map.of());
        Order bought = buy("a", 5, "100");
        Order cancelledBuy = buy("b", 1, "100");
        Order stillOpen = buy("c", 1, "100");
        for (Order order : List.of(bought, cancelledBuy, stillOpen)) {
            account.reserve(order, order.reservedCash());
            account.writeEnded(order.orderId());
            account.written(order.orderId());
        }
        assertThat(account.availableShares("IBM")).isZero();
        LedgerSnapshot ledger = new LedgerSnapshot("c", new BigDecimal("1000.00"), Map.of(), List.of(
                decided(bought, OrderStatus.FILLED, "98.50"), decided(cancelledBuy, OrderStatus.CANCELLED, null), stillOpen));

        assertThat(account.catchUp(ledger)).isEqualTo(2);
        assertThat(account.catchUp(ledger)).as("a second read changes nothing").isZero();
        account.filled(bought.orderId(), bought.side(), bought.quantity(), new BigDecimal("98.50"), T, "us-east-1");
        account.closedUnfilled(cancelledBuy.orderId(), OrderStatus.CANCELLED, T);

        assertThat(account.availableShares("IBM")).as("the fill's shares can be sold at once").isEqualTo(5);
        assertThat(account.holdings()).isEqualTo(ledger.holdings());
        assertThat(account.availableCash()).isEqualByComparingTo("407.50");
    }

    /** A report that cannot be a fill of the order (a forged or broken event, a bad answer) changes no balance. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource({
            "a negative price,    BUY,  5, -1000",
            "a zero price,        BUY,  5, 0",
            "above the limit,     BUY,  5, 100.01",
            "another quantity,    BUY,  50, 98",
            "another side,        SELL, 5, 98"})
    void aFillThatCannotBeTheOrdersIsRefusedAndChangesNothing(String what, Side side, long quantity, String price) {
        Account account = account("1000.00", Map.of());
        Order order = buy("a", 5, "100");
        account.reserve(order, order.reservedCash());
        account.writeEnded(order.orderId());
        account.written(order.orderId());

        assertThat(account.filled(order.orderId(), side, quantity, new BigDecimal(price), T, "us-east-1")).as(what).isPresent();

        assertThat(account.availableCash()).isEqualByComparingTo("500");
        assertThat(account.holdings().cash()).isEqualByComparingTo("1000");
        assertThat(account.holdings().positions()).isEmpty();
        assertThat(account.find(order.orderId())).hasValueSatisfying(o -> assertThat(o.status()).isEqualTo(OrderStatus.OPEN));
    }

    @Test
    void aSellLimitIsNotFilledBelowItsLimit() {
        Account account = account("0.00", Map.of("IBM", 10L));
        Order order = sell("s", 4);
        account.reserve(order, BigDecimal.ZERO);

        assertThat(account.filled(order.orderId(), Side.SELL, 4, new BigDecimal("9.99"), T, "us-east-1")).isPresent();
        assertThat(account.filled(order.orderId(), Side.SELL, 4, BigDecimal.TEN, T, "us-east-1")).isEmpty();
    }

    private static Order decided(Order o, OrderStatus status, String fillPrice) {
        boolean filled = status == OrderStatus.FILLED;
        return new Order(o.orderId(), o.customerId(), o.clientOrderId(), o.symbol(), o.exchange(), o.side(), o.type(), o.quantity(), o.limitPrice(),
                o.stopPrice(), o.reservedCash(), status, o.placedRegion(), o.placedAt(), filled ? new BigDecimal(fillPrice) : null, filled ? T : null,
                filled ? "us-east-1" : null, filled ? null : T);
    }
}
