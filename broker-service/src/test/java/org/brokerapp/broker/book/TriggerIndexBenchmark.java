package org.brokerapp.broker.book;

import java.time.Instant;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.PriceUnits;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one tick for {@link TriggerIndex#onTick}, as a distribution (JMH sample time: p50, p99,
 * p99.9), for both indexes at 10,000 and 1,000,000 open orders.
 *
 * <p>The market: 500 symbols priced 20.00 to 500.00; the open orders spread evenly over them and
 * over the four books, their trigger prices on the cent grid on the side the price has not reached
 * yet, at exponentially distributed distances (mean 1% of the price), because real orders crowd
 * near the price. A tick hits a random symbol and moves its price by a Gaussian step of one basis
 * point, rounded to the cent: about 92% of ticks trigger nothing, most of the rest one to a few
 * orders, and a price that jumps over a crowded cent triggers dozens. Before each tick, outside the
 * measured time, the orders the last tick triggered are replaced by new ones near the price, and one
 * random order is cancelled and replaced, so the index keeps its size and its orders stay recent.
 * The run prints what the ticks triggered.
 *
 * <p>Not a test (JUnit does not run it). Run it, in about 80 seconds, from the repository root (the
 * annotations below set one fork, 3 warm-up and 5 measurement iterations); docs/benchmarks/log/2026-11-22-matching.md has the results:
 * <pre>
 * ./mvnw -q -B -o -pl broker-service -am test-compile -DskipTests
 * java -cp "broker-service/target/test-classes:broker-service/target/classes:$(./mvnw -q -B -o -pl broker-service \
 *     dependency:build-classpath -Dmdep.outputFile=/dev/stdout -Dmdep.includeScope=test)" \
 *     org.openjdk.jmh.Main TriggerIndexBenchmark
 * </pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Thread)
public class TriggerIndexBenchmark {

    /** Which {@link TriggerIndex} to measure. */
    public enum Kind {
        SORTED,
        SCANNING
    }

    private static final int SYMBOLS = 500;
    private static final Side[] SIDES = {Side.BUY, Side.SELL};
    private static final OrderType[] TYPES = {OrderType.LIMIT, OrderType.STOP};
    private static final long CENT = PriceUnits.SCALE / 100;
    private static final long LOWEST_PRICE = 20 * PriceUnits.SCALE;
    private static final long HIGHEST_PRICE = 500 * PriceUnits.SCALE;
    private static final double MEAN_DISTANCE = 0.01;
    private static final double STEP = 0.0001;
    private static final int CANCELS_PER_TICK = 1;

    @Param({"SORTED", "SCANNING"})
    public Kind kind;

    @Param({"10000", "1000000"})
    public int openOrders;

    private final SplittableRandom random = new SplittableRandom(20261122);
    private final Collector triggered = new Collector();
    private final String[] symbols = new String[SYMBOLS];
    private final long[] prices = new long[SYMBOLS];
    private TriggerIndex index;
    private UUID[] idInSlot;
    private int tickSymbol;
    private long ticks;
    private long triggeringTicks;
    private long triggeredOrders;
    private int mostTriggeredByOneTick;

    @Setup(Level.Trial)
    public void fillTheIndex() {
        index = kind == Kind.SORTED ? new SortedTriggerIndex() : new ScanningTriggerIndex();
        idInSlot = new UUID[openOrders];
        double range = Math.log((double) HIGHEST_PRICE / LOWEST_PRICE);
        for (int s = 0; s < SYMBOLS; s++) {
            symbols[s] = "S" + s;
            prices[s] = onCentGrid((long) (LOWEST_PRICE * Math.exp(random.nextDouble() * range)));
        }
        for (int slot = 0; slot < openOrders; slot++) {
            place(slot);
        }
        if (index.size() != openOrders) {
            throw new IllegalStateException("expected " + openOrders + " open orders, have " + index.size());
        }
    }

    /** Replaces the orders the last tick triggered, cancels and replaces a random one, picks the next tick; not measured. */
    @Setup(Level.Invocation)
    public void replenishAndPrepareTheNextTick() {
        for (int i = 0; i < triggered.count; i++) {
            place(slotOf(triggered.orders[i]));
        }
        for (int i = 0; i < CANCELS_PER_TICK; i++) {
            int slot = random.nextInt(openOrders);
            index.remove(idInSlot[slot]);
            place(slot);
        }
        ticks++;
        triggeringTicks += triggered.count == 0 ? 0 : 1;
        triggeredOrders += triggered.count;
        mostTriggeredByOneTick = Math.max(mostTriggeredByOneTick, triggered.count);
        triggered.count = 0;
        tickSymbol = random.nextInt(SYMBOLS);
        long price = prices[tickSymbol];
        long step = onCentGrid(Math.round(random.nextGaussian() * STEP * price));
        prices[tickSymbol] = Math.max(CENT, price + step);
    }

    @Benchmark
    public int onTick() {
        index.onTick(symbols[tickSymbol], prices[tickSymbol], triggered);
        return triggered.count;
    }

    @TearDown(Level.Trial)
    public void describeTheWorkload() {
        System.out.printf("%n%s at %,d open orders (%,d after the run): %,d ticks, %.1f%% of them triggered orders, "
                        + "%.3f orders per tick, at most %d%n", kind, openOrders, index.size() + triggered.count, ticks,
                100.0 * triggeringTicks / ticks, (double) triggeredOrders / ticks, mostTriggeredByOneTick);
    }

    // Slots fix each order's symbol and book, so the index keeps its shape; the order id names its slot.
    private void place(int slot) {
        int symbol = slot % SYMBOLS;
        Side side = SIDES[(slot / SYMBOLS) % 2];
        OrderType type = TYPES[(slot / SYMBOLS / 2) % 2];
        long price = prices[symbol];
        // new orders crowd near the price, as real ones do, on the side the price has not reached yet
        long distance = CENT * (1 + (long) (-Math.log(1 - random.nextDouble()) * MEAN_DISTANCE * price / CENT));
        boolean below = (side == Side.BUY) == (type == OrderType.LIMIT);
        long triggerPrice = below ? Math.max(CENT, price - distance) : price + distance;
        UUID id = new UUID(slot, random.nextLong());
        idInSlot[slot] = id;
        index.add(new RestingOrder(id, "customer-" + random.nextInt(1000), symbols[symbol], side, type,
                1 + random.nextInt(500), triggerPrice, Instant.EPOCH));
    }

    private static int slotOf(RestingOrder order) {
        return (int) order.orderId().getMostSignificantBits();
    }

    private static long onCentGrid(long units) {
        return Math.round((double) units / CENT) * CENT;
    }

    /** Keeps the orders of one tick without allocating; reset before each tick. */
    private static final class Collector implements Consumer<RestingOrder> {

        RestingOrder[] orders = new RestingOrder[64];
        int count;

        @Override
        public void accept(RestingOrder order) {
            if (count == orders.length) {
                orders = Arrays.copyOf(orders, count * 2);
            }
            orders[count++] = order;
        }
    }
}
