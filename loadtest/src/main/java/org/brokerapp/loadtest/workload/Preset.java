package org.brokerapp.loadtest.workload;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;


/**
 * Named loads; every value can be overridden on the command line. The rates are what the harness
 * offers; whether the system keeps up is what a run measures. On the project's machine (2 vCPU
 * shared by 4 Cassandra nodes, 2 Kafka, 2 brokers and the harness) the system saturates between
 * {@code small} and {@code medium} (docs/benchmarks/README.md); {@code prototype} is the published
 * prototype's load, for machines with cores to spare.
 */
public enum Preset {

    /** The README's one-command demo, about four minutes of load: 20 orders/s (LIMIT 50 %, STOP 20 %, STOP_LIMIT 10 %, MARKET 20 %; 30 % cross-region),
     * 60 ticks/s over 15 + 15 symbols, 50 customers; 10 s ramp-up, 150 s warm-up, 90 s measured, 5 s drain. Two and a half minutes of
     * warm-up, since the brokers are new JVMs still compiling their order path: after one minute their compilers still took about
     * half of their CPU in the window, and every latency measured that too (docs/benchmarks/log/2026-11-29-warm-up-150s.md). */
    DEMO("the one-command demo: 20 orders/s (LIMIT 50%, STOP 20%, STOP_LIMIT 10%, MARKET 20%; half BUY; half marketable; 30% cross-region), "
            + "60 ticks/s over 15+15 symbols, 50 customers, ramp-up 10 s, warm-up 150 s, 90 s measured",
            20, 60, new OrderMix(50, 20, 20, 10), 0.5, 0.5, 0.3, 15, 15, 50, 10, 150, 90, 5, 10),

    /** Seconds long, to see the whole path work: 10 orders/s (LIMIT 50 %, STOP 20 %, STOP_LIMIT 10 %, MARKET 20 %; 20 % cross-region), 40 ticks/s over
     * 5 + 5 symbols, 20 customers; 2 s ramp-up, 3 s warm-up, 10 s measured, 2 s drain. */
    SMOKE("seconds long: 10 orders/s (LIMIT 50%, STOP 20%, STOP_LIMIT 10%, MARKET 20%; half BUY; half marketable; 20% cross-region), 40 ticks/s "
            + "over 5+5 symbols, 20 customers, ramp-up 2 s, warm-up 3 s, 10 s measured",
            10, 40, new OrderMix(50, 20, 20, 10), 0.5, 0.5, 0.2, 5, 5, 20, 2, 3, 10, 2, 5),
    /** The published prototype's experiment: 300 orders/s (LIMIT 75 %, STOP 15 %, MARKET 10 %, two thirds of LIMIT/STOP marketable:
     * ~210 trades/s; 10 % placed in Sydney), 600 ticks/s over 60 us-east-1 symbols, 200 customers; 10 s ramp-up, 20 s warm-up, 60 s measured. */
    PROTOTYPE("the published prototype's load: 300 orders/s (LIMIT 75%, STOP 15%, MARKET 10%; half BUY; 2/3 of LIMIT/STOP marketable: ~210 trades/s; "
            + "10% cross-region), 600 ticks/s over 60 us-east-1 symbols, 200 customers, ramp-up 10 s, warm-up 20 s, 60 s measured",
            300, 600, new OrderMix(75, 15, 10), 0.5, 2.0 / 3, 0.1, 60, 0, 200, 10, 20, 60, 5, 200),
    /** Within a 2-core laptop's reach: 40 orders/s, 80 ticks/s over 20 + 20 symbols, 100 customers; 10 s ramp-up, 15 s warm-up, 60 s measured. */
    SMALL("a 2-core laptop: 40 orders/s (LIMIT 70%, STOP 20%, MARKET 10%; half BUY; half marketable; 20% cross-region), 80 ticks/s over 20+20 symbols, "
            + "100 customers, ramp-up 10 s, warm-up 15 s, 60 s measured",
            40, 80, new OrderMix(70, 20, 10), 0.5, 0.5, 0.2, 20, 20, 100, 10, 15, 60, 5, 30),
    /** Beyond a 2-core laptop: 150 orders/s, 300 ticks/s over 40 + 40 symbols, 200 customers; 15 s ramp-up, 30 s warm-up, 120 s measured. */
    MEDIUM("beyond a 2-core laptop: 150 orders/s (LIMIT 70%, STOP 20%, MARKET 10%; half BUY; half marketable; 20% cross-region), 300 ticks/s over "
            + "40+40 symbols, 200 customers, ramp-up 15 s, warm-up 30 s, 120 s measured",
            150, 300, new OrderMix(70, 20, 10), 0.5, 0.5, 0.2, 40, 40, 200, 15, 30, 120, 5, 100);

    private final String description;
    private final double orders;
    private final double ticks;
    private final OrderMix mix;
    private final double buy;
    private final double marketable;
    private final double crossRegion;
    private final int firstRegionSymbols;
    private final int otherRegionSymbols;
    private final int customers;
    private final int ramp;
    private final int warm;
    private final int duration;
    private final int drain;
    private final double floor;

    Preset(String description, double orders, double ticks, OrderMix mix, double buy, double marketable, double crossRegion, int firstRegionSymbols,
           int otherRegionSymbols, int customers, int ramp, int warm, int duration, int drain, double floor) {
        this.description = description;
        this.orders = orders;
        this.ticks = ticks;
        this.mix = mix;
        this.buy = buy;
        this.marketable = marketable;
        this.crossRegion = crossRegion;
        this.firstRegionSymbols = firstRegionSymbols;
        this.otherRegionSymbols = otherRegionSymbols;
        this.customers = customers;
        this.ramp = ramp;
        this.warm = warm;
        this.duration = duration;
        this.drain = drain;
        this.floor = floor;
    }

    /** The preset of that name (any case); refused, naming the known ones, if there is none. */
    public static Preset named(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown preset '" + name + "'; known: " + Arrays.stream(values()).map(Preset::key).toList());
        }
    }

    /** What the preset is for, in a phrase (the command line's help). */
    public String description() {
        return description;
    }

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The preset's load on these regions: the first region gets the first symbol count, every other region the second. */
    public WorkloadSpec spec(java.util.List<String> regions) {
        Map<String, Integer> symbols = new LinkedHashMap<>();
        for (int i = 0; i < regions.size(); i++) {
            symbols.put(regions.get(i), i == 0 ? firstRegionSymbols : otherRegionSymbols);
        }
        return new WorkloadSpec(orders, ticks, mix, buy, marketable, crossRegion, symbols, customers, Duration.ofSeconds(ramp),
                Duration.ofSeconds(warm), Duration.ofSeconds(duration), Duration.ofSeconds(drain), floor, 1000, 1);
    }
}
