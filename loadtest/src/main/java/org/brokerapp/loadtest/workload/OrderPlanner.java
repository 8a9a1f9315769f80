package org.brokerapp.loadtest.workload;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.api.TimeInForce;

/**
 * Decides each order of the workload: customer, symbol, type, side, price, and the region it is
 * placed in. Pure and seeded, so a run's order stream is reproducible and unit-testable.
 *
 * <p>Prices are set against the symbol's base price, around which its ticks stay within
 * {@link TickPlanner#JITTER} (0.2 %): a marketable order is 1 % on the triggering side (the next tick
 * fills it), a resting one a factor of two away (no tick ever reaches it). So the trade rate is
 * the order rate times (LIMIT+STOP share x marketable share + MARKET share).
 *
 * <p>Each customer trades a fixed portfolio of symbols from every region ({@link #portfolio}), so
 * that a priming phase ({@link #primingOrders}) can give every customer the shares its SELL orders
 * need. Customers place in their home region ({@link #homeOf}); an order is cross-region when its
 * symbol is matched in another region.
 */
public final class OrderPlanner {

    static final BigDecimal MARKETABLE_UP = new BigDecimal("1.01");
    static final BigDecimal MARKETABLE_DOWN = new BigDecimal("0.99");
    static final BigDecimal RESTING_UP = new BigDecimal("2");
    static final BigDecimal RESTING_DOWN = new BigDecimal("0.5");
    static final Duration GTD_SHORTEST = Duration.ofSeconds(2);
    static final Duration GTD_SPREAD = Duration.ofSeconds(28);

    private final WorkloadSpec spec;
    private final SymbolSet symbols;
    private final List<String> regions;
    private final SplittableRandom random;
    private final String runId;
    private final AtomicLong sequence = new AtomicLong();

    public OrderPlanner(WorkloadSpec spec, SymbolSet symbols, List<String> regions, String runId) {
        this.spec = spec;
        this.symbols = symbols;
        this.regions = List.copyOf(regions);
        this.random = new SplittableRandom(spec.seed());
        this.runId = runId;
    }

    /** The next order; called from one thread (the order loop). */
    public PlannedOrder next() {
        int customer = 1 + random.nextInt(spec.customers());
        String home = homeOf(customer);
        boolean crossRegion = regions.size() > 1 && random.nextDouble() < spec.crossRegionShare();
        List<TradedSymbol> mine = portfolio(customer);
        List<TradedSymbol> candidates = mine.stream().filter(s -> s.home().equals(home) != crossRegion).toList();
        if (candidates.isEmpty()) {
            candidates = mine;
        }
        TradedSymbol symbol = candidates.get(random.nextInt(candidates.size()));
        OrderType type = spec.mix().pick(random);
        Side side = random.nextDouble() < spec.buyShare() ? Side.BUY : Side.SELL;
        boolean marketable = type == OrderType.MARKET || random.nextDouble() < spec.marketableShare();
        TimeInForce timeInForce = timeInForce(type, marketable);
        Duration goodFor = timeInForce == TimeInForce.GTD ? Duration.ofMillis(GTD_SHORTEST.toMillis() + random.nextLong(GTD_SPREAD.toMillis())) : null;
        return new PlannedOrder(runId + "-" + sequence.incrementAndGet(), customer, symbol, side, type, 1,
                price(symbol.basePrice(), side, type, marketable), marketable, home, timeInForce, goodFor);
    }

    /**
     * MARKET orders are IOC. A resting LIMIT or STOP is GTC, DAY or GTD alike, the GTD ones good for 2 to 30 s, so a run's
     * expiries are decided while it runs; a marketable one GTC or DAY (its next tick fills it either way).
     */
    private TimeInForce timeInForce(OrderType type, boolean marketable) {
        if (type == OrderType.MARKET) {
            return TimeInForce.IOC;
        }
        int pick = random.nextInt(marketable ? 2 : 3);
        return pick == 0 ? TimeInForce.GTC : pick == 1 ? TimeInForce.DAY : TimeInForce.GTD;
    }

    /**
     * Where customer {@code load-n} is homed, by the brokers' own rule (the regions of the model in
     * turn): each customer places in their home region, as a customer reaching the nearest region
     * would, and an order is cross-region when its symbol is matched in another region.
     */
    public String homeOf(int customer) {
        return homeOf(customer, regions);
    }

    /** As {@link #homeOf(int)}, for the regions given. */
    public static String homeOf(int customer, List<String> regions) {
        return regions.get((customer - 1) % regions.size());
    }

    /**
     * The symbols a customer trades: {@code ceil(symbols of the region / customers)} of every
     * region's, so every customer has symbols matched at home and away and the cross-region share
     * comes out as asked for.
     */
    public List<TradedSymbol> portfolio(int customer) {
        List<TradedSymbol> mine = new ArrayList<>();
        for (String region : symbols.regions()) {
            List<TradedSymbol> in = symbols.in(region);
            if (in.isEmpty()) {
                continue;
            }
            int per = Math.max(1, (in.size() + spec.customers() - 1) / spec.customers());
            for (int j = 0; j < per; j++) {
                mine.add(in.get(((customer - 1) * per + j) % in.size()));
            }
        }
        return mine;
    }

    /**
     * One marketable BUY LIMIT per customer and portfolio symbol, placed in the customer's home region,
     * for {@code min(primeShares, 2,000,000 / price)} shares: what SELL orders sell from.
     */
    public List<PlannedOrder> primingOrders() {
        List<PlannedOrder> orders = new ArrayList<>();
        for (int c = 1; c <= spec.customers(); c++) {
            for (TradedSymbol s : portfolio(c)) {
                long affordable = new BigDecimal("2000000").divide(s.basePrice(), 0, RoundingMode.DOWN).longValue();
                long quantity = Math.max(1, Math.min(spec.primeShares(), affordable));
                orders.add(new PlannedOrder(runId + "-prime-" + c + "-" + s.symbol(), c, s, Side.BUY, OrderType.LIMIT, quantity,
                        price(s.basePrice(), Side.BUY, OrderType.LIMIT, true), true, homeOf(c)));
            }
        }
        return orders;
    }

    /**
     * BUY LIMIT and SELL STOP trigger at or below their price, SELL LIMIT and BUY STOP at or above:
     * marketable means the price is already on the triggering side by 1 %, resting that it is a factor of two away.
     */
    static BigDecimal price(BigDecimal base, Side side, OrderType type, boolean marketable) {
        if (type == OrderType.MARKET) {
            return null;
        }
        boolean triggersAtOrBelow = (side == Side.BUY) == (type == OrderType.LIMIT);
        BigDecimal factor = marketable ? (triggersAtOrBelow ? MARKETABLE_UP : MARKETABLE_DOWN)
                : (triggersAtOrBelow ? RESTING_DOWN : RESTING_UP);
        return base.multiply(factor).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros().max(new BigDecimal("0.0001"));
    }
}
