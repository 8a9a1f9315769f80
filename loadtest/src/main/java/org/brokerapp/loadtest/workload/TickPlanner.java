package org.brokerapp.loadtest.workload;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.brokerapp.ticker.Tick;

/**
 * The ticks of one region: its symbols in turn (so every symbol ticks at the same rate and a
 * marketable order waits at most one round), each price within {@link #JITTER} of the symbol's base
 * price, per-symbol sequence numbers from 1 without gaps for the lifetime of the planner. Used by one thread.
 */
public final class TickPlanner {

    /** Ticks move at most this fraction away from the base price, well inside the 1 % of a marketable order. */
    public static final double JITTER = 0.002;

    private final List<TradedSymbol> symbols;
    private final SplittableRandom random;
    private final Map<String, Long> sequences = new HashMap<>();
    private int next;

    public TickPlanner(List<TradedSymbol> symbols, long seed) {
        if (symbols.isEmpty()) {
            throw new IllegalArgumentException("a tick planner needs symbols");
        }
        this.symbols = List.copyOf(symbols);
        this.random = new SplittableRandom(seed);
    }

    /** The next tick, stamped with the time it is meant to be sent (its intended start). */
    public Tick next(Instant eventTime) {
        TradedSymbol s = symbols.get(next);
        next = (next + 1) % symbols.size();
        double move = (random.nextDouble() * 2 - 1) * JITTER;
        BigDecimal price = s.basePrice().multiply(BigDecimal.valueOf(1 + move)).setScale(4, RoundingMode.HALF_EVEN);
        if (price.signum() <= 0) {
            price = s.basePrice();
        }
        long sequence = sequences.merge(s.symbol(), 1L, Long::sum);
        return new Tick(s.symbol(), s.exchange(), price, 100, sequence, eventTime);
    }
}
