package org.brokerapp.ticker.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.brokerapp.regions.Listing;
import org.brokerapp.regions.Region;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.Tick;

/**
 * The simulated exchanges of one region: which symbol trades next (Zipf popularity), at what price
 * (a {@link PricePath} per symbol from its listing's price and volatility, rounded to the
 * exchange's {@link TickSizes}), how many shares ({@link TradeSizes}), and its per-symbol sequence
 * number.
 *
 * <p>Deterministic: for the same listings, seed, skew and the same times asked for, it yields the
 * same ticks, on any JVM ({@link Random} is specified to the bit). Not thread-safe: one feed thread
 * owns it.
 */
public final class SimulatedMarket {

    private final List<Listing> ranking;
    private final TickSizes[] grids;
    private final PricePath[] paths;
    private final long[] sequences;
    private final ZipfPopularity popularity;
    private final Random random;
    private final Instant start;

    /**
     * @param ranking listings from hottest to quietest
     * @param start   the event time of offset 0
     */
    public SimulatedMarket(List<Listing> ranking, long seed, double skew, Instant start) {
        this.ranking = List.copyOf(ranking);
        this.popularity = new ZipfPopularity(ranking.size(), skew);
        this.random = new Random(seed);
        this.start = start;
        int n = ranking.size();
        grids = new TickSizes[n];
        paths = new PricePath[n];
        sequences = new long[n];
        for (int i = 0; i < n; i++) {
            Listing listing = ranking.get(i);
            grids[i] = TickSizes.of(listing.exchange());
            paths[i] = new PricePath(listing.price().doubleValue(), listing.volatility());
        }
    }

    /**
     * The market of a region's home symbols. Each region draws from its own random stream, derived
     * from the seed and the region's name, so adding a region to a run changes no other region's ticks.
     */
    public static SimulatedMarket forRegion(Region region, SymbolUniverse universe, long seed, double skew, Instant start) {
        List<Listing> homed = universe.homedIn(region);
        if (homed.isEmpty()) {
            throw new IllegalArgumentException("region " + region.name() + " has no symbols: none of " + region.exchanges() + " is in the symbol universe");
        }
        return new SimulatedMarket(rankByExchangeInterleaving(homed), regionSeed(seed, region.name()), skew, start);
    }

    static long regionSeed(long seed, String region) {
        return seed ^ (0x9E3779B97F4A7C15L * region.hashCode());
    }

    /**
     * Popularity ranks: the file lists each exchange's symbols roughly by market value, so the
     * exchanges take turns: NYSE's first, NASDAQ's first, NYSE's second, and so on.
     */
    static List<Listing> rankByExchangeInterleaving(List<Listing> listings) {
        Map<String, List<Listing>> byExchange = new LinkedHashMap<>();
        listings.forEach(l -> byExchange.computeIfAbsent(l.exchange(), e -> new ArrayList<>()).add(l));
        List<Listing> ranked = new ArrayList<>(listings.size());
        for (int i = 0; ranked.size() < listings.size(); i++) {
            for (List<Listing> exchange : byExchange.values()) {
                if (i < exchange.size()) {
                    ranked.add(exchange.get(i));
                }
            }
        }
        return ranked;
    }

    /** The next trade, at {@code offsetNanos} after the start; offsets must not decrease. */
    public Tick tickAt(long offsetNanos) {
        int i = popularity.sample(random.nextDouble());
        double price = paths[i].advanceTo(offsetNanos, random.nextGaussian());
        Listing listing = ranking.get(i);
        return new Tick(listing.symbol(), listing.exchange(), grids[i].round(price), TradeSizes.next(random),
                ++sequences[i], start.plusNanos(offsetNanos));
    }

    /** Listings from hottest to quietest. */
    public List<Listing> ranking() {
        return ranking;
    }
}
