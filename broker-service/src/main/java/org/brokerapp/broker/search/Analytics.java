package org.brokerapp.broker.search;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Operator analytics over every region's trades, merged here from each region's aggregations.
 * Counts, quantities and notionals are sums, so they merge exactly; VWAP is recomputed from the
 * merged sums (sum of notional / sum of quantity), never averaged; latency percentiles cannot be
 * merged, so they are given per region.
 */
record Analytics(Instant from, Instant to, Duration interval, List<Volume> volume, List<Vwap> vwap, List<TopSymbol> topSymbols,
                        List<Latency> fillLatency, SearchRegions regions) {

    /** Trades of one symbol filled by one region in one interval. */
    public record Volume(Instant interval, String symbol, String region, long trades, long quantity, BigDecimal notional) {
    }

    /** Volume-weighted average price of a symbol in an interval, over every region's fills. */
    public record Vwap(Instant interval, String symbol, BigDecimal vwap, long quantity, long trades) {
    }

    public record TopSymbol(String symbol, long quantity, long trades, BigDecimal notional) {
    }

    /** Fill latency (tick time to fill durable) percentiles in ms of one region's indexed fills; null when it had none with a tick time. */
    public record Latency(String region, long trades, Double p50Ms, Double p90Ms, Double p99Ms) {
    }

    /** One region's raw aggregation cell, in units of 0.0001 for money. */
    record Cell(Instant interval, String symbol, String region, long trades, long quantity, long notionalE4) {
    }

    record RegionPart(String region, List<Cell> cells, Latency latency) {
    }

    static Analytics merge(Instant from, Instant to, Duration interval, List<RegionPart> parts, SearchRegions regions, int top) {
        Map<String, long[]> volume = new TreeMap<>();
        Map<String, long[]> bySymbolInterval = new TreeMap<>();
        Map<String, long[]> bySymbol = new TreeMap<>();
        for (RegionPart part : parts) {
            for (Cell c : part.cells()) {
                add(volume, c.interval() + "|" + c.symbol() + "|" + c.region(), c);
                add(bySymbolInterval, c.interval() + "|" + c.symbol(), c);
                add(bySymbol, c.symbol(), c);
            }
        }
        List<Volume> volumes = new ArrayList<>();
        volume.forEach((key, v) -> {
            String[] k = key.split("\\|");
            volumes.add(new Volume(Instant.parse(k[0]), k[1], k[2], v[0], v[1], money(v[2])));
        });
        List<Vwap> vwaps = new ArrayList<>();
        bySymbolInterval.forEach((key, v) -> {
            String[] k = key.split("\\|");
            vwaps.add(new Vwap(Instant.parse(k[0]), k[1], vwap(v[2], v[1]), v[1], v[0]));
        });
        List<TopSymbol> tops = bySymbol.entrySet().stream()
                .map(e -> new TopSymbol(e.getKey(), e.getValue()[1], e.getValue()[0], money(e.getValue()[2])))
                .sorted(Comparator.comparingLong(TopSymbol::quantity).reversed().thenComparing(TopSymbol::symbol))
                .limit(top).toList();
        return new Analytics(from, to, interval, volumes, vwaps, tops, parts.stream().map(RegionPart::latency).toList(), regions);
    }

    private static void add(Map<String, long[]> sums, String key, Cell c) {
        long[] v = sums.computeIfAbsent(key, k -> new long[3]);
        v[0] += c.trades();
        v[1] += c.quantity();
        v[2] += c.notionalE4();
    }

    static BigDecimal vwap(long notionalE4, long quantity) {
        return BigDecimal.valueOf(notionalE4).divide(BigDecimal.valueOf(quantity).multiply(BigDecimal.valueOf(10_000)), 4, RoundingMode.HALF_EVEN);
    }

    private static BigDecimal money(long e4) {
        return BigDecimal.valueOf(e4, 4);
    }
}
