package org.brokerapp.loadtest.run;

import org.brokerapp.loadtest.report.ResultTable;

/**
 * Something measured over exactly the measured window besides latency, e.g. write amplification
 * from each Cassandra node's own metrics: snapshot at {@link #windowStarted}, difference at
 * {@link #windowEnded}. Called on the harness's thread; keep both calls short.
 */
public interface WindowProbe {

    /** What the window did, to normalise by (e.g. replica writes per 1,000 trades). */
    record WindowFacts(double seconds, double fills, long ordersAccepted) {
    }

    void windowStarted();

    /** The probe's table for the report, or null for none. */
    ResultTable windowEnded(WindowFacts facts);
}
