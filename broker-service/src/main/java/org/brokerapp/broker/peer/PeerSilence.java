package org.brokerapp.broker.peer;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;

/**
 * Opens a peer region's circuit once its pings went unanswered {@code limit} times in a row. The
 * breaker's own rule (half of its last calls failed) needs as many failures as its window holds
 * successes, about ten seconds of pings after a cut; every MARKET order routed in that time waits
 * on the dead link before it is refused. A few silent pings are a surer sign, and come sooner.
 */
final class PeerSilence {

    private final int limit;
    private final Map<String, Integer> unansweredInARow = new ConcurrentHashMap<>();

    /** {@code limit}: at least 1 ({@code broker.routing.unanswered-pings-to-open}, validated at start-up). */
    PeerSilence(int limit) {
        this.limit = limit;
    }

    void answered(String region) {
        unansweredInARow.remove(region);
    }

    /** Counts an unanswered ping; at the limit a closed circuit opens (a half-open one reopens by its own rule). */
    void unanswered(String region, CircuitBreaker circuit) {
        int inARow = unansweredInARow.merge(region, 1, Integer::sum);
        if (inARow >= limit && circuit.getState() == CircuitBreaker.State.CLOSED) {
            circuit.transitionToOpenState();
        }
    }
}
