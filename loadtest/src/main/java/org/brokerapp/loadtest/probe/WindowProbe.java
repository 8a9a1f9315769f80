package org.brokerapp.loadtest.probe;

import java.time.Duration;
import java.util.List;
import java.util.Optional;


/**
 * Something measured over exactly the measured window besides latency, e.g. write amplification
 * from each Cassandra node's own metrics: snapshot at {@link #windowStarted}, difference at
 * {@link #windowEnded}; optionally the same over an idle baseline before the load ({@link #idleStarted},
 * {@link #idleEnded}), so that what runs regardless of orders (leases, gossip, polling) can be subtracted. Called on the harness's thread; keep both calls short.
 */
public interface WindowProbe {

    /** What the window did, to normalise by (e.g. replica writes per 1,000 trades). */
    record WindowFacts(double seconds, double fills, long ordersAccepted) {
    }

    /** Before any load (when the run measures an idle baseline): what the target does at rest, to subtract later. */
    default void idleStarted() {
    }

    default void idleEnded() {
    }

    /**
     * Where this probe meters the target's CPU: what its processes burned since the last call (the
     * first call: zero). The harness reads it while the target settles, before the idle baseline
     * ({@link Settling}); a process that ended in between counts for nothing.
     */
    default Optional<Duration> cpuSinceLastAsked() {
        return Optional.empty();
    }

    void windowStarted();

    /** The probe's tables for the report (none: an empty list). */
    List<ResultTable> windowEnded(WindowFacts facts);
}
