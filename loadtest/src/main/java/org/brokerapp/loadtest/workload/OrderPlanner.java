package org.brokerapp.loadtest.workload;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides each order of the workload: customer, symbol, type, side, price, and the region it is
 * placed in. Pure and seeded, so a run's order stream is reproducible and unit-testable.
 *
 * <p>Prices are set against the symbol's base price, around which its ticks stay within
 * {@link TickPlanner#JITTER} (0.2 %): a marketable order is 1 % on the triggering side (the next tick
 * fills it), a resting one a factor of two away (no tick ever reaches it). So the trade rate is
 * the order rate times (LIMIT+STOP share x marketable share + MARKET share).
 *
 * <p>Each customer trades a fixed portfolio of {@code ceil(symbols / customers)} symbols, so that a
 * priming phase ({@link #primingOrders}) can give every customer the shares its SELL orders need.
 */
public final class OrderPlanner {

    static final BigDecimal MARKETABLE_UP = new BigDecimal("1.01");
    static final BigDecimal MARKETABLE_DOWN = new BigDecimal("0.99");
    static final BigDecimal RESTING_UP = new BigDecimal("2");
    static final BigDecimal RESTING_DOWN = new BigDecimal("0.5");

    private final WorkloadSpec spec;
    private final SymbolSet symbols;
    private final List<String> regions;
    private final SplittableRandom random;
    private final String runId;
    private final AtomicLong sequence = new AtomicLong();
    private final int portfolioSize;

    public OrderPlanner(WorkloadSpec spec, SymbolSet symbols, List<String> regions, String runId) {
        this.spec = spec;
        this.symbols = symbols;
        this.regions = List.copyOf(regions);
        this.random = new SplittableRandom(spec.seed());
        this.runId = runId;
        this.portfolioSize = Math.max(1, (symbols.size() + spec.customers() - 1) / spec.customers());
    }

    /** The next order; called from one thread (the order loop). */
    public PlannedOrder next() {
        int customer = 1 + random.nextInt(spec.customers());
        TradedSymbol symbol = portfolio(customer).get(random.nextInt(portfolioSize));
        OrderType type = spec.mix().pick(random);
        Side side = random.nextDouble() < spec.buyShare() ? Side.BUY : Side.SELL;
        boolean marketable = type == OrderType.MARKET || random.nextDouble() < spec.marketableShare();
        String placedIn = symbol.home();
        if (regions.size() > 1 && random.nextDouble() < spec.crossRegionShare()) {
            List<String> others = regions.stream().filter(r -> !r.equals(symbol.home())).toList();
            placedIn = others.get(random.nextInt(others.size()));
        }
        return new PlannedOrder(runId + "-" + sequence.incrementAndGet(), customer, symbol, side, type, 1,
                price(symbol.basePrice(), side, type, marketable), marketable, placedIn);
    }

    /** The symbols a customer trades. */
    public List<TradedSymbol> portfolio(int customer) {
        List<TradedSymbol> all = symbols.all();
        List<TradedSymbol> mine = new ArrayList<>(portfolioSize);
        for (int j = 0; j < portfolioSize; j++) {
            mine.add(all.get(((customer - 1) * portfolioSize + j) % all.size()));
        }
        return mine;
    }

    /**
     * One marketable BUY LIMIT per customer and portfolio symbol, placed in the symbol's home region,
     * for {@code min(primeShares, 2,000,000 / price)} shares: what SELL orders sell from.
     */
    public List<PlannedOrder> primingOrders() {
        List<PlannedOrder> orders = new ArrayList<>();
        for (int c = 1; c <= spec.customers(); c++) {
            for (TradedSymbol s : portfolio(c)) {
                long affordable = new BigDecimal("2000000").divide(s.basePrice(), 0, RoundingMode.DOWN).longValue();
                long quantity = Math.max(1, Math.min(spec.primeShares(), affordable));
                orders.add(new PlannedOrder(runId + "-prime-" + c + "-" + s.symbol(), c, s, Side.BUY, OrderType.LIMIT, quantity,
                        price(s.basePrice(), Side.BUY, OrderType.LIMIT, true), true, s.home()));
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
