package org.brokerapp.loadtest.workload;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.brokerapp.regions.Listing;
import org.brokerapp.regions.RegionsModel;
import org.brokerapp.regions.SymbolUniverse;

/**
 * The symbols a run trades: the first N listings of each region's exchanges (in the universe's
 * order), skipping those priced above {@value #MAX_PRICE} so that priming stays within a customer's cash.
 */
public final class SymbolSet {

    static final BigDecimal MAX_PRICE = new BigDecimal("2000");

    private final List<TradedSymbol> all;
    private final Map<String, List<TradedSymbol>> byRegion;

    SymbolSet(Map<String, List<TradedSymbol>> byRegion) {
        this.byRegion = new LinkedHashMap<>(byRegion);
        this.all = byRegion.values().stream().flatMap(List::stream).toList();
    }

    public static SymbolSet choose(SymbolUniverse universe, RegionsModel regions, Map<String, Integer> counts) {
        Map<String, List<TradedSymbol>> byRegion = new LinkedHashMap<>();
        for (String region : regions.names()) {
            int wanted = counts.getOrDefault(region, 0);
            List<TradedSymbol> chosen = new ArrayList<>();
            for (Listing l : universe.homedIn(regions.region(region))) {
                if (chosen.size() == wanted) {
                    break;
                }
                if (l.price().compareTo(MAX_PRICE) <= 0) {
                    chosen.add(new TradedSymbol(l.symbol(), l.exchange(), region, l.price()));
                }
            }
            if (chosen.size() < wanted) {
                throw new IllegalArgumentException("region " + region + " has only " + chosen.size() + " symbols priced at most "
                        + MAX_PRICE + ", " + wanted + " were asked for");
            }
            byRegion.put(region, List.copyOf(chosen));
        }
        for (String region : counts.keySet()) {
            regions.region(region); // an unknown region is an error, not silently ignored
        }
        return new SymbolSet(byRegion);
    }

    public List<TradedSymbol> all() {
        return all;
    }

    public List<TradedSymbol> in(String region) {
        return byRegion.getOrDefault(region, List.of());
    }

    public List<String> regions() {
        return List.copyOf(byRegion.keySet());
    }

    public int size() {
        return all.size();
    }
}
