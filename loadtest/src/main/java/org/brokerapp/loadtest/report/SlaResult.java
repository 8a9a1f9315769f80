package org.brokerapp.loadtest.report;

import java.util.List;

/**
 * An SLA search: load stepped up until p99 ticker-to-fill broke the SLA.
 *
 * @param answerOrdersPerSecond the highest passing step's order rate, or null when even the first failed
 * @param verdict               one sentence
 */
public record SlaResult(double slaMillis, List<Step> steps, Double answerOrdersPerSecond, Double answerTicksPerSecond,
                        Double answerFillsPerSecond, String verdict) {

    /** One step of the search, soaked for the window's duration. */
    public record Step(int step, double ordersPerSecond, double ticksPerSecond, double achievedOrdersPerSecond, double fillsPerSecond,
                       long tickToFillCount, double tickToFillP99Millis, double errorShare, boolean passed, String reason) {
    }
}
