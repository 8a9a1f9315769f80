package org.brokerapp.broker.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.book.RestingOrder;
import org.brokerapp.broker.core.PriceUnits;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.junit.jupiter.api.Test;

/**
 * A rebuild reads every resting order of its symbols, and the open_orders row of a decided order
 * goes, against the real us-east-1 DC, even when the broker that placed the order has a clock
 * ahead of the deciding broker's: the clock-skew drill's case (docs/reliability/README.md), where a
 * delete stamped by the decider's clock alone lost to the insert.
 * Through the broker's own {@link OpenOrders}, so at {@code LOCAL_QUORUM} as the matcher writes and
 * reads: the stack's plain driver session reads at {@code LOCAL_ONE}, from a replica that may not
 * have the delete yet (a CI run once found the deleted row that way).
 */
@BrokersTest
class OpenOrdersIT {

    /** A symbol no other test rests orders on, so its partitions hold only this test's rows. */
    private static final String SYMBOL = "CSCO";

    @Test
    void aDecisionRemovesTheRowOfAnOrderPlacedByAClockAheadOfTheDecidersOwn(Brokers brokers) {
        OpenOrders openOrders = brokers.bean("us-east-1", OpenOrders.class);
        Instant decidedAt = Instant.now();
        // the placing broker's clock 2 s ahead of the decider's
        RestingOrder order = order(decidedAt.plus(Duration.ofSeconds(2)));
        openOrders.saveAsync(order).toCompletableFuture().join();
        assertThat(openOrders.load(SYMBOL)).extracting(RestingOrder::orderId).contains(order.orderId());

        openOrders.deleteAsync(SYMBOL, order.orderId(), Optional.of(order.placedAt()), decidedAt).toCompletableFuture().join();
        // a placement repeated after a timeout writes the same cells again, later in time: it must stay deleted
        openOrders.saveAsync(order).toCompletableFuture().join();

        assertThat(openOrders.load(SYMBOL)).extracting(RestingOrder::orderId).doesNotContain(order.orderId());
    }

    @Test
    void aDeleteStampedOnlyByTheDecidersClockLosesToAnInsertFromAClockAhead(Brokers brokers) {
        OpenOrders openOrders = brokers.bean("us-east-1", OpenOrders.class);
        Instant decidedAt = Instant.now();
        RestingOrder placedBefore = order(decidedAt.minusMillis(500));
        RestingOrder placedAhead = order(decidedAt.plusSeconds(2));
        openOrders.saveAsync(placedBefore).toCompletableFuture().join();
        openOrders.saveAsync(placedAhead).toCompletableFuture().join();

        // what a cancel does when neither the matcher's index nor the ledger read told it when the order was placed
        openOrders.deleteAsync(SYMBOL, placedBefore.orderId(), Optional.empty(), decidedAt).toCompletableFuture().join();
        openOrders.deleteAsync(SYMBOL, placedAhead.orderId(), Optional.empty(), decidedAt).toCompletableFuture().join();

        assertThat(openOrders.load(SYMBOL)).extracting(RestingOrder::orderId)
                .doesNotContain(placedBefore.orderId())
                .as("stamped before its insert, the delete loses: why every decision passes the placement time it knows")
                .contains(placedAhead.orderId());
        openOrders.deleteAsync(SYMBOL, placedAhead.orderId(), Optional.of(placedAhead.placedAt()), decidedAt).toCompletableFuture().join();
        assertThat(openOrders.load(SYMBOL)).extracting(RestingOrder::orderId).doesNotContain(placedAhead.orderId());
    }

    /** A take-over rebuilds hundreds of symbols at once: every shard of every one is read, however many reads wait their turn. */
    @Test
    void aRebuildOfManySymbolsFindsEveryRestingOrderOfEach(Brokers brokers) {
        OpenOrders openOrders = brokers.bean("us-east-1", OpenOrders.class);
        String run = UUID.randomUUID().toString().substring(0, 6).toUpperCase();
        // symbols of this test only (the table does not check listings), more shard reads than may run at once
        List<String> symbols = IntStream.range(0, 2 * OpenOrders.READS_IN_FLIGHT).mapToObj(i -> "RB" + run + i).toList();
        List<RestingOrder> resting = symbols.stream()
                .flatMap(symbol -> IntStream.range(0, 3).mapToObj(i -> order(symbol, Instant.now())))
                .toList();
        resting.forEach(o -> openOrders.saveAsync(o).toCompletableFuture().join());

        assertThat(openOrders.load(symbols)).extracting(RestingOrder::orderId)
                .containsExactlyInAnyOrderElementsOf(resting.stream().map(RestingOrder::orderId).toList());
    }

    private static RestingOrder order(Instant placedAt) {
        return order(SYMBOL, placedAt);
    }

    private static RestingOrder order(String symbol, Instant placedAt) {
        return new RestingOrder(UUID.randomUUID(), "skew-test", symbol, Side.BUY, OrderType.LIMIT, 1, PriceUnits.of(new BigDecimal("1.00")), placedAt);
    }
}
