package org.brokerapp.broker.book;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.PriceUnits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What every {@link TriggerIndex} promises; each implementation runs these through a subclass. */
abstract class TriggerIndexContractTests {

    private final TriggerIndex index = newIndex();
    private long nextId = 1;

    protected abstract TriggerIndex newIndex();

    @ParameterizedTest(name = "{0} {1} at {2}, tick {3}: triggers {4}")
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
            BUY  | LIMIT | 0.465  | 0.4651   | false
            BUY  | LIMIT | 0.465  | 0.465    | true
            SELL | STOP  | 0.0002 | 0.0001   | true
            BUY  | STOP  | 0.0001 | 0.0001   | true
            SELL | LIMIT | 0.0002 | 0.0001   | false
            """)
    void aTickTriggersAnOrderAtItsPriceAndNotOneUnitShortOfIt(Side side, OrderType type, BigDecimal price,
                                                              BigDecimal tick, boolean triggers) {
        RestingOrder order = order("AAPL", side, type, price);
        index.add(order);

        List<RestingOrder> triggered = tick("AAPL", tick);

        assertThat(triggered).isEqualTo(triggers ? List.of(order) : List.of());
        assertThat(triggered).allSatisfy(o -> assertThat(o.triggeredBy(PriceUnits.of(tick))).isTrue());
        assertThat(index.contains(order.orderId())).isEqualTo(!triggers);
    }

    // the book of every row: two bids, an offer, a buy stop above and a sell stop below the market
    @ParameterizedTest(name = "tick {0} triggers [{1}]")
    @CsvSource(delimiter = '|', textBlock = """
            100.50 |
            100.00 | bid-100.00
            99.50  | bid-99.50 bid-100.00
            97.00  | bid-99.50 bid-100.00 sell-stop-98.00
            101.00 | offer-101.00
            102.00 | offer-101.00 buy-stop-102.00
            """)
    void oneTickReportsEveryOrderItTriggersAndOnlyThose(BigDecimal tick, String expected) {
        Map<String, RestingOrder> book = new LinkedHashMap<>();
        book.put("bid-99.50", order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("99.50")));
        book.put("bid-100.00", order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("100.00")));
        book.put("offer-101.00", order("AAPL", Side.SELL, OrderType.LIMIT, new BigDecimal("101.00")));
        book.put("buy-stop-102.00", order("AAPL", Side.BUY, OrderType.STOP, new BigDecimal("102.00")));
        book.put("sell-stop-98.00", order("AAPL", Side.SELL, OrderType.STOP, new BigDecimal("98.00")));
        book.values().forEach(index::add);
        List<RestingOrder> expectedOrders = expected == null ? List.of()
                : Arrays.stream(expected.split(" ")).map(book::get).toList();

        assertThat(tick("AAPL", tick)).containsExactlyInAnyOrderElementsOf(expectedOrders);
        assertThat(index.size("AAPL")).isEqualTo(book.size() - expectedOrders.size());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', textBlock = """
            BUY  | LIMIT | 99.00
            SELL | LIMIT | 101.00
            BUY  | STOP  | 101.00
            SELL | STOP  | 99.00
            """)
    void ordersAtTheSamePriceAreReportedInTheOrderTheyWereAdded(Side side, OrderType type, BigDecimal tick) {
        RestingOrder first = order("AAPL", side, type, new BigDecimal("100.00"));
        RestingOrder second = order("AAPL", side, type, new BigDecimal("100.00"));
        RestingOrder third = order("AAPL", side, type, new BigDecimal("100.00"));
        index.add(first);
        index.add(second);
        index.add(third);
        index.remove(first.orderId());
        index.add(first);

        assertThat(tick("AAPL", tick)).containsExactly(second, third, first);
    }

    @Test
    void aTickOfAnotherSymbolTriggersNothing() {
        RestingOrder order = order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("100.00"));
        index.add(order);

        assertThat(tick("MSFT", new BigDecimal("50.00"))).isEmpty();
        assertThat(tick("AAP", new BigDecimal("50.00"))).isEmpty();
        assertThat(index.contains(order.orderId())).isTrue();
        assertThat(index.size("AAPL")).isEqualTo(1);
    }

    @Test
    void aTriggeredOrderLeavesTheIndexAndTriggersOnlyOnce() {
        RestingOrder order = order("AAPL", Side.SELL, OrderType.STOP, new BigDecimal("95.00"));
        index.add(order);

        assertThat(tick("AAPL", new BigDecimal("94.00"))).containsExactly(order);
        assertThat(tick("AAPL", new BigDecimal("94.00"))).isEmpty();
        assertThat(index.contains(order.orderId())).isFalse();
        assertThat(index.size()).isZero();
        assertThat(index.remove(order.orderId())).isEmpty();
    }

    @Test
    void aRemovedOrderNeverTriggers() {
        RestingOrder kept = order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("100.00"));
        RestingOrder cancelled = order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("100.00"));
        index.add(kept);
        index.add(cancelled);

        assertThat(index.remove(cancelled.orderId())).hasValue(cancelled);
        assertThat(index.remove(cancelled.orderId())).isEmpty();
        assertThat(index.contains(cancelled.orderId())).isFalse();
        assertThat(tick("AAPL", new BigDecimal("90.00"))).containsExactly(kept);
    }

    @Test
    void removingAnUnknownOrderChangesNothing() {
        index.add(order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("100.00")));

        assertThat(index.remove(UUID.randomUUID())).isEmpty();
        assertThat(index.size()).isEqualTo(1);
    }

    @Test
    void addingAnOrderTwiceKeepsTheFirstCopy() {
        RestingOrder order = order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("100.00"));
        RestingOrder sameId = new RestingOrder(order.orderId(), "someone-else", "MSFT", Side.SELL, OrderType.STOP, 5,
                PriceUnits.of(new BigDecimal("400.00")), Instant.EPOCH);

        assertThat(index.add(order)).isTrue();
        assertThat(index.add(order)).isFalse();
        assertThat(index.add(sameId)).isFalse();
        assertThat(index.size()).isEqualTo(1);
        assertThat(index.size("MSFT")).isZero();
        assertThat(tick("MSFT", new BigDecimal("300.00"))).isEmpty();
        assertThat(tick("AAPL", new BigDecimal("99.00"))).containsExactly(order);
    }

    @Test
    void sizesCountOpenOrdersPerSymbolAndInAll() {
        index.add(order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("100.00")));
        index.add(order("AAPL", Side.SELL, OrderType.STOP, new BigDecimal("90.00")));
        index.add(order("BHP", Side.SELL, OrderType.LIMIT, new BigDecimal("42.50")));

        assertThat(index.size()).isEqualTo(3);
        assertThat(index.size("AAPL")).isEqualTo(2);
        assertThat(index.size("BHP")).isEqualTo(1);
        assertThat(index.size("MSFT")).isZero();
    }

    @Test
    void clearingASymbolDropsItsOrdersOnly() {
        RestingOrder apple = order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("100.00"));
        RestingOrder bhp = order("BHP", Side.BUY, OrderType.LIMIT, new BigDecimal("42.50"));
        index.add(apple);
        index.add(bhp);

        index.clear("AAPL");
        index.clear("MSFT");

        assertThat(index.size()).isEqualTo(1);
        assertThat(index.size("AAPL")).isZero();
        assertThat(index.contains(apple.orderId())).isFalse();
        assertThat(tick("AAPL", new BigDecimal("1.00"))).isEmpty();
        assertThat(index.add(apple)).isTrue();
        assertThat(tick("BHP", new BigDecimal("1.00"))).containsExactly(bhp);
    }

    @Test
    void whenTheConsumerFailsTheOrdersNotYetReportedStayInTheIndex() {
        index.add(order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("100.00")));
        index.add(order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("100.00")));
        long tick = PriceUnits.of(new BigDecimal("99.00"));

        assertThatThrownBy(() -> index.onTick("AAPL", tick, o -> {
            throw new IllegalStateException("ledger down");
        })).hasMessage("ledger down");
        assertThat(index.size()).isEqualTo(1);

        List<RestingOrder> retried = new ArrayList<>();
        index.onTick("AAPL", tick, retried::add);
        assertThat(retried).hasSize(1);
        assertThat(index.size()).isZero();
    }

    @Test
    void theConsumerCannotChangeTheIndexItIsCalledFrom() {
        RestingOrder order = order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("100.00"));
        RestingOrder other = order("AAPL", Side.BUY, OrderType.LIMIT, new BigDecimal("90.00"));
        index.add(order);
        index.add(other);
        List<Consumer<RestingOrder>> changes = List.of(
                o -> index.add(order("AAPL", Side.SELL, OrderType.LIMIT, new BigDecimal("120.00"))),
                o -> index.remove(other.orderId()),
                o -> index.clear("AAPL"));

        for (Consumer<RestingOrder> change : changes) {
            index.add(order);
            assertThatThrownBy(() -> index.onTick("AAPL", PriceUnits.of(new BigDecimal("99.00")), change))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cannot change while it reports");
        }
        assertThat(index.contains(other.orderId())).isTrue();
        assertThat(index.size()).isEqualTo(1);
    }

    @Test
    void aTickPriceMustBePositive() {
        assertThatThrownBy(() -> index.onTick("AAPL", 0, o -> { }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be > 0");
    }

    @Test
    void aTickThatTriggersNothingAllocatesNothing() {
        // bids and sell stops below 100.00, offers and buy stops above 100.01: no tick in between triggers
        for (int i = 0; i < 100; i++) {
            Side side = i % 2 == 0 ? Side.BUY : Side.SELL;
            OrderType type = i % 4 < 2 ? OrderType.LIMIT : OrderType.STOP;
            boolean below = (side == Side.BUY) == (type == OrderType.LIMIT);
            BigDecimal offset = BigDecimal.valueOf(i, 2);
            index.add(order("AAPL", side, type, below ? new BigDecimal("99.99").subtract(offset) : new BigDecimal("100.02").add(offset)));
        }
        Consumer<RestingOrder> triggered = o -> {
            throw new AssertionError("triggered " + o);
        };
        long price = PriceUnits.of(new BigDecimal("100.00"));
        int ticks = 20_000;
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        tickAround(price, ticks, triggered);
        threads.getCurrentThreadAllocatedBytes();

        long before = threads.getCurrentThreadAllocatedBytes();
        tickAround(price, ticks, triggered);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        // the JVM itself may allocate a few bytes on this thread (a deoptimization, say), but an object
        // per tick would be at least 16 bytes a tick
        assertThat(allocated).isLessThan(ticks);
        assertThat(index.size()).isEqualTo(100);
    }

    private void tickAround(long price, int ticks, Consumer<RestingOrder> triggered) {
        for (int i = 0; i < ticks / 2; i++) {
            index.onTick("AAPL", price + i % 100, triggered);
            index.onTick("MSFT", price, triggered);
        }
    }

    private List<RestingOrder> tick(String symbol, BigDecimal price) {
        List<RestingOrder> triggered = new ArrayList<>();
        index.onTick(symbol, PriceUnits.of(price), triggered::add);
        return triggered;
    }

    private RestingOrder order(String symbol, Side side, OrderType type, BigDecimal price) {
        return new RestingOrder(new UUID(0, nextId++), "customer-1", symbol, side, type, 10, PriceUnits.of(price), Instant.EPOCH);
    }
}
