package org.brokerapp.loadtest.report;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.brokerapp.loadtest.measure.Measures;

/**
 * The measured window of one load level.
 *
 * @param seconds           its length
 * @param measures          every latency measure, the floor first
 * @param errors            failed operations by kind, in the window
 * @param timeline          rates per progress interval from the start of the load (ramp-up and warm-up included)
 * @param generatorLagMillis how far the harness's own loops ever fell behind their schedule (its own limit)
 * @param brokerScrapeComplete false when a broker did not answer a before/after scrape (its ticker-to-fill is then left out)
 */
public record WindowResult(double seconds, Throughput throughput, List<MeasureResult> measures, Map<String, Long> errors,
                           List<TimelinePoint> timeline, long generatorLagMillis, boolean brokerScrapeComplete) {

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    public MeasureResult measure(String name) {
        return measures.stream().filter(m -> m.name().equals(name)).findFirst().orElse(null);
    }

    /** A measure over all regions: its all-regions row, or the one region's row where a single region has it. */
    public Optional<MeasureResult> acrossRegions(String measure) {
        return Optional.ofNullable(measure(Measures.allRegions(measure)))
                .or(() -> measures.stream().filter(m -> m.name().startsWith(measure + " @")).findFirst());
    }
}
