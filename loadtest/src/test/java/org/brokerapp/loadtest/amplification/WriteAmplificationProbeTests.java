package org.brokerapp.loadtest.amplification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.brokerapp.loadtest.amplification.WriteAmplificationTests.EAST_1;
import static org.brokerapp.loadtest.amplification.WriteAmplificationTests.REGIONS;
import static org.brokerapp.loadtest.amplification.WriteAmplificationTests.T0;
import static org.brokerapp.loadtest.amplification.WriteAmplificationTests.snapshot;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import org.brokerapp.loadtest.probe.ResultTable;
import org.brokerapp.loadtest.probe.WindowProbe.WindowFacts;
import org.junit.jupiter.api.Test;

/** The probe across a drill: a node restarted in the window leaves its table empty and the run going, never a failed run. */
class WriteAmplificationProbeTests {

    @Test
    void aNodeWhoseCountersWentBackwardsInTheWindowLeavesTheTableEmptyAndTheRunGoesOn() {
        Deque<ClusterSnapshot> snapshots = new ArrayDeque<>(List.of(
                ClusterSnapshot.at("broker", T0, List.of(snapshot(EAST_1, 500, 0, Map.of("customer_ledger", 500L), Map.of("customer_ledger", 500L),
                        0, Map.of(), 1_000))),
                // the node was killed and started again: its counters begin from zero
                ClusterSnapshot.at("broker", T0.plusSeconds(90), List.of(snapshot(EAST_1, 20, 0, Map.of("customer_ledger", 20L),
                        Map.of("customer_ledger", 20L), 0, Map.of(), 100)))));
        WriteAmplificationProbe probe = new WriteAmplificationProbe(snapshots::removeFirst, REGIONS);

        probe.windowStarted();
        List<ResultTable> tables = probe.windowEnded(new WindowFacts(90, 100, 1_800));

        assertThat(tables).singleElement().satisfies(t -> {
            assertThat(t.rows()).isEmpty();
            assertThat(t.note()).startsWith("n/a: counters of ").contains("went backwards");
        });
    }
}
