package org.brokerapp.loadtest.report;

import org.brokerapp.loadtest.measure.LatencySummary;

/**
 * One latency measure of a window with its references.
 *
 * @param source     how it was measured (client HdrHistogram from intended start, or the broker's Prometheus buckets)
 * @param region     the region it was measured in (the placing region for orders), or null
 * @param p50VsFloor p50 / the floor write's p50 in the same region (all regions when that region has none); null if unknown
 * @param p99VsFloor p99 / the floor write's p99, likewise
 * @param rttMillis  the emulated WAN round trip that a cross-region measure crosses; null for local measures
 */
public record MeasureResult(String name, String source, String region, boolean crossRegion, LatencySummary latency,
                            Double p50VsFloor, Double p99VsFloor, Double rttMillis, Double p50VsRtt, Double p99VsRtt) {

    public static final String CLIENT = "client, HdrHistogram from intended start";
    public static final String BROKER_BUCKETS = "broker histogram, bucket upper bounds";
    public static final String BROKER_EXACT = "broker HdrHistogram (/actuator/latency), exact to 3 significant digits";
}
