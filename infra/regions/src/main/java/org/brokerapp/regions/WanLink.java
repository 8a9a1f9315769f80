package org.brokerapp.regions;

import java.util.List;

/**
 * The emulated one-way delay between two regions, the same in both directions.
 *
 * @param between          exactly two region names
 * @param oneWayLatencyMs  one-way delay in milliseconds (half the round trip)
 */
public record WanLink(List<String> between, int oneWayLatencyMs) {

    public WanLink {
        between = between == null ? List.of() : List.copyOf(between);
        if (between.size() != 2 || between.get(0).equals(between.get(1))) {
            throw new InvalidRegionsException("wan.links[].between must name two different regions, was " + between);
        }
        if (oneWayLatencyMs < 0) {
            throw new InvalidRegionsException("wan.links" + between + ".one-way-latency-ms must be >= 0, was " + oneWayLatencyMs);
        }
    }

    boolean joins(String a, String b) {
        return between.contains(a) && between.contains(b);
    }
}
