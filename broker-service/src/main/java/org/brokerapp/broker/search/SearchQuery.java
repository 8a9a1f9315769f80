package org.brokerapp.broker.search;

import java.time.Instant;
import java.util.Optional;

/**
 * One customer's search, validated: what a region's index is asked. {@code from} inclusive,
 * {@code to} exclusive; pages are 1-based.
 */
record SearchQuery(String customerId, Optional<String> symbol, Optional<String> side, Optional<String> status,
                   Optional<String> orderType, Optional<Instant> from, Optional<Instant> to, int page, int size) {

    /** How many hits each region must return so the merged page is exact. */
    int depth() {
        return page * size;
    }
}
