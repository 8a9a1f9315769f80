package org.brokerapp.loadtest.workload;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What load to apply. Every knob of the command line ends up here; presets are values of it.
 *
 * @param ordersPerSecond   orders placed over REST per second, all regions together (0: ticks only)
 * @param ticksPerSecond    ticks published per second, all regions together, split by each region's symbol count
 * @param mix               shares of LIMIT, STOP and MARKET orders
 * @param buyShare          share of BUY orders (the rest SELL, from shares bought in a priming phase)
 * @param marketableShare   share of LIMIT and STOP orders priced to trigger on the symbol's next tick (the rest rest far
 *                          from the price): with the MARKET share it sets the trade rate
 * @param crossRegionShare  share of orders placed in a region other than the symbol's home
 * @param symbolsPerRegion  how many symbols of each region's exchanges are traded (0: none homed there)
 * @param customers         generated customers {@code load-1..N} the brokers were started with
 * @param rampUp            linear ramp from 0 to the target rates, before the warm-up
 * @param warmUp            at full rate, not measured
 * @param duration          the measured window
 * @param drain             ticks go on this long after the last order, so marketable orders placed last can fill
 * @param floorWritesPerSecond bare LOCAL_QUORUM writes per second, all regions together (0: no floor)
 * @param primeShares       shares of each traded symbol each customer buys before the load when SELL orders are placed
 * @param seed              the random seed of the order and tick plans
 */
public record WorkloadSpec(double ordersPerSecond, double ticksPerSecond, OrderMix mix, double buyShare, double marketableShare,
                           double crossRegionShare, Map<String, Integer> symbolsPerRegion, int customers, Duration rampUp,
                           Duration warmUp, Duration duration, Duration drain, double floorWritesPerSecond, int primeShares, long seed) {

    public WorkloadSpec {
        nonNegative(ordersPerSecond, "order rate");
        if (!(ticksPerSecond > 0) || Double.isInfinite(ticksPerSecond)) {
            throw new IllegalArgumentException("tick rate must be > 0, was " + ticksPerSecond);
        }
        share(buyShare, "buy share");
        share(marketableShare, "marketable share");
        share(crossRegionShare, "cross-region share");
        nonNegative(floorWritesPerSecond, "floor write rate");
        symbolsPerRegion = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(symbolsPerRegion));
        if (symbolsPerRegion.values().stream().anyMatch(n -> n < 0)) {
            throw new IllegalArgumentException("symbol counts must be >= 0, were " + symbolsPerRegion);
        }
        if (symbolsPerRegion.values().stream().mapToInt(Integer::intValue).sum() == 0) {
            throw new IllegalArgumentException("at least one region needs symbols, were " + symbolsPerRegion);
        }
        if (customers < 1) {
            throw new IllegalArgumentException("customers must be >= 1, was " + customers);
        }
        if (primeShares < 1) {
            throw new IllegalArgumentException("prime shares must be >= 1, was " + primeShares);
        }
        for (Map.Entry<String, Duration> d : Map.of("ramp-up", rampUp, "warm-up", warmUp, "drain", drain).entrySet()) {
            if (d.getValue().isNegative()) {
                throw new IllegalArgumentException(d.getKey() + " must be >= 0, was " + d.getValue().toSeconds() + " s");
            }
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be > 0 s, was " + duration.toSeconds() + " s");
        }
    }

    /** The trade rate this load aims at: marketable LIMIT/STOP orders plus every MARKET order. */
    public double expectedTradesPerSecond() {
        return ordersPerSecond * ((mix.limit() + mix.stop()) * marketableShare + mix.market());
    }

    /** The same load with order, tick and floor rates multiplied by {@code factor} (an SLA search step). */
    public WorkloadSpec scaled(double factor) {
        return new WorkloadSpec(ordersPerSecond * factor, ticksPerSecond * factor, mix, buyShare, marketableShare, crossRegionShare,
                symbolsPerRegion, customers, rampUp, warmUp, duration, drain, floorWritesPerSecond * factor, primeShares, seed);
    }

    public WorkloadSpec withOrdersPerSecond(double rate) {
        return new WorkloadSpec(rate, ticksPerSecond, mix, buyShare, marketableShare, crossRegionShare, symbolsPerRegion, customers,
                rampUp, warmUp, duration, drain, floorWritesPerSecond, primeShares, seed);
    }

    public int totalSymbols() {
        return symbolsPerRegion.values().stream().mapToInt(Integer::intValue).sum();
    }

    private static void nonNegative(double value, String what) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(what + " must be >= 0, was " + value);
        }
    }

    private static void share(double value, String what) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(what + " must be between 0 and 1, was " + value);
        }
    }
}
