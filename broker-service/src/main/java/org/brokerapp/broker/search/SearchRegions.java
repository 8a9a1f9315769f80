package org.brokerapp.broker.search;

import java.util.List;

/**
 * Which regions a fanned-out search heard from. A region in {@code missing} did not answer by the
 * deadline (or failed); the results hold only what the others know, which the client must show.
 */
record SearchRegions(List<String> answered, List<Missing> missing) {

    public record Missing(String region, String reason) {
    }
}
