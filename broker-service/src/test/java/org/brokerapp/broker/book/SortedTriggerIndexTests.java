package org.brokerapp.broker.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.PriceUnits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SortedTriggerIndexTests extends TriggerIndexContractTests {

    private static final String[] SYMBOLS = {"AAPL", "MSFT", "BRK.B", "BHP", "29M"};
    private static final long START = PriceUnits.of(new BigDecimal("100.00"));
    private static final long CENT = PriceUnits.SCALE / 100;
    // a stable sort on these keeps time priority visible: equal prices stay in the order they were reported
    private static final Comparator<RestingOrder> BY_BOOK_AND_PRICE = Comparator.comparing(RestingOrder::symbol)
            .thenComparing(RestingOrder::side).thenComparing(RestingOrder::type).thenComparingLong(RestingOrder::triggerPrice);

    @Override
    protected TriggerIndex newIndex() {
        return new SortedTriggerIndex();
    }

    @ParameterizedTest(name = "{0} {1}, tick {2}")
    @CsvSource(delimiter = '|', textBlock = """
            BUY  | LIMIT | 90.00  | 102.00 101.00 100.00
            SELL | STOP  | 90.00  | 102.00 101.00 100.00
            SELL | LIMIT | 110.00 | 100.00 101.00 102.00
            BUY  | STOP  | 110.00 | 100.00 101.00 102.00
            """)
    void withinABookTheOrderThePriceReachesFirstIsReportedFirst(Side side, OrderType type, BigDecimal tick, String expected) {
        TriggerIndex index = newIndex();
        for (String price : List.of("101.00", "100.00", "102.00")) {
            index.add(new RestingOrder(UUID.randomUUID(), "customer-1", "AAPL", side, type, 1, PriceUnits.of(new BigDecimal(price)), Instant.EPOCH));
        }
        List<RestingOrder> triggered = new ArrayList<>();

        index.onTick("AAPL", PriceUnits.of(tick), triggered::add);

        assertThat(triggered).map(o -> PriceUnits.toDecimal(o.triggerPrice()).toPlainString())
                .containsExactly(expected.split(" "));
    }

    @Test
    void agreesWithTheScanningReferenceOverTwoHundredThousandRandomOperations() {
        Random random = new Random(3);
        TriggerIndex sorted = newIndex();
        TriggerIndex reference = new ScanningTriggerIndex();
        long[] prices = new long[SYMBOLS.length];
        Arrays.fill(prices, START);
        List<RestingOrder> added = new ArrayList<>();
        int ticks = 0;
        int cancelled = 0;
        int triggeredOrders = 0;
        int mostTriggeredByOneTick = 0;

        for (int op = 0; op < 200_000; op++) {
            int s = random.nextInt(SYMBOLS.length);
            String symbol = SYMBOLS[s];
            // 45% adds (some of them repeats), 15% cancels (some of unknown ids), 40% ticks, now and then a hand-over
            int dice = random.nextInt(10_000);
            if (dice < 4_500) {
                RestingOrder order = dice < 200 && !added.isEmpty()
                        ? added.get(random.nextInt(added.size()))
                        : randomOrder(random, symbol, prices[s]);
                assertThat(sorted.add(order)).as("op %d: add %s", op, order).isEqualTo(reference.add(order));
                added.add(order);
            } else if (dice < 6_000) {
                UUID id = dice < 4_600 || added.isEmpty() ? UUID.randomUUID() : recent(random, added).orderId();
                Optional<RestingOrder> removed = reference.remove(id);
                assertThat(sorted.remove(id)).as("op %d: remove %s", op, id).isEqualTo(removed);
                cancelled += removed.isPresent() ? 1 : 0;
            } else if (dice < 9_998) {
                prices[s] = nextPrice(random, prices[s]);
                List<RestingOrder> fromSorted = new ArrayList<>();
                List<RestingOrder> fromReference = new ArrayList<>();
                sorted.onTick(symbol, prices[s], fromSorted::add);
                reference.onTick(symbol, prices[s], fromReference::add);
                fromSorted.sort(BY_BOOK_AND_PRICE);
                fromReference.sort(BY_BOOK_AND_PRICE);
                assertThat(fromSorted).as("op %d: tick %s at %d", op, symbol, prices[s]).isEqualTo(fromReference);
                ticks++;
                triggeredOrders += fromSorted.size();
                mostTriggeredByOneTick = Math.max(mostTriggeredByOneTick, fromSorted.size());
            } else {
                sorted.clear(symbol);
                reference.clear(symbol);
            }
            if (added.size() > 50_000) {
                added.subList(0, 25_000).clear();
            }
            assertThat(sorted.size()).as("op %d: size", op).isEqualTo(reference.size());
            assertThat(sorted.size(symbol)).as("op %d: size of %s", op, symbol).isEqualTo(reference.size(symbol));
        }

        // the walk really exercised the index: many ticks, triggers and cancels, some triggers in bulk
        assertThat(ticks).isGreaterThan(70_000);
        assertThat(triggeredOrders).isGreaterThan(50_000);
        assertThat(mostTriggeredByOneTick).isGreaterThan(100);
        assertThat(cancelled).isGreaterThan(8_000);
        assertThat(reference.size()).isGreaterThan(1_000);
        for (RestingOrder order : added) {
            assertThat(sorted.contains(order.orderId())).isEqualTo(reference.contains(order.orderId()));
        }
    }

    // mostly the last orders added, which are likelier to be still open, to cancel them
    private static RestingOrder recent(Random random, List<RestingOrder> added) {
        int window = Math.min(added.size(), random.nextBoolean() ? 2_000 : 100);
        return added.get(added.size() - 1 - random.nextInt(window));
    }

    // trigger prices on the cent grid within 2.00 of the price, so that many orders share a price
    private static RestingOrder randomOrder(Random random, String symbol, long price) {
        long triggerPrice = Math.max(1, price + (random.nextInt(401) - 200) * CENT);
        return new RestingOrder(UUID.randomUUID(), "customer-" + random.nextInt(10), symbol,
                random.nextBoolean() ? Side.BUY : Side.SELL, random.nextBoolean() ? OrderType.LIMIT : OrderType.STOP,
                1 + random.nextInt(100), triggerPrice, Instant.EPOCH);
    }

    // mostly small steps, on or off the grid, now and then a gap that triggers a whole range; pulled back to 100.00
    private static long nextPrice(Random random, long price) {
        long step = switch (random.nextInt(50)) {
            case 0 -> (random.nextInt(201) - 100) * CENT;
            case 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 -> (random.nextInt(3) - 1) * CENT;
            default -> random.nextInt(201) - 100;
        };
        return Math.max(1, price + step - (price - START) / 64);
    }
}
