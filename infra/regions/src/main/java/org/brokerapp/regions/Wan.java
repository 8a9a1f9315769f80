package org.brokerapp.regions;

import java.util.List;

/**
 * The wide-area network between regions, as the local stack emulates it.
 *
 * @param defaultOneWayLatencyMs delay between any two regions without a {@link WanLink}
 * @param links                  per-pair delays
 */
public record Wan(int defaultOneWayLatencyMs, List<WanLink> links) {

    public Wan {
        links = links == null ? List.of() : List.copyOf(links);
        if (defaultOneWayLatencyMs < 0) {
            throw new InvalidRegionsException("wan.default-one-way-latency-ms must be >= 0, was " + defaultOneWayLatencyMs);
        }
    }

    int oneWayLatencyMs(String a, String b) {
        return links.stream()
                .filter(link -> link.joins(a, b))
                .mapToInt(WanLink::oneWayLatencyMs)
                .findFirst()
                .orElse(defaultOneWayLatencyMs);
    }
}
