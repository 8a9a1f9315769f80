package org.brokerapp.loadtest.amplification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.brokerapp.loadtest.amplification.WriteAmplificationTests.EAST_1;
import static org.brokerapp.loadtest.amplification.WriteAmplificationTests.EAST_2;
import static org.brokerapp.loadtest.amplification.WriteAmplificationTests.SYDNEY_1;
import static org.brokerapp.loadtest.amplification.WriteAmplificationTests.T0;
import static org.brokerapp.loadtest.amplification.WriteAmplificationTests.snapshot;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class AmplificationTableTests {

    // 10 trades, 50 client mutations (5 per trade) of which 20 conditional; RF 2 + 1
    private static final ClusterSnapshot AFTER = ClusterSnapshot.at("broker", T0.plusSeconds(5), List.of(
                    snapshot(EAST_1, 30, 20, Map.of("open_orders", 20L, "order_inbox", 10L),
                            Map.of("customer_ledger", 20L, "open_orders", 20L, "order_inbox", 10L, "idle", 0L), 60,
                            Map.of("127.7.2.11_7000", new PeerTraffic(50, 5_120)), 1_000_000_000L),
                    snapshot(EAST_2, 0, 0, Map.of(), Map.of("customer_ledger", 20L, "open_orders", 20L, "order_inbox", 10L), 60,
                            Map.of("127.7.2.11_7000", PeerTraffic.NONE), 1_000_000_000L),
                    snapshot(SYDNEY_1, 0, 0, Map.of(), Map.of("customer_ledger", 20L, "open_orders", 20L, "order_inbox", 10L), 20,
                            Map.of("127.7.1.11_7000", new PeerTraffic(50, 1_024), "127.7.1.12_7000", PeerTraffic.NONE), 500_000_000L)));
    private final WriteAmplification wa = WriteAmplification.between(WriteAmplificationTests.idle(AFTER), AFTER, 10, WriteAmplificationTests.REGIONS);

    @Test
    void perDcHasARowForEachDcAndOneForTheCluster() {
        String md = AmplificationTable.perDc(wa);

        // the table's five lines, then its note on what a client write is
        assertThat(md.lines()).hasSize(7);
        assertThat(md.lines().toList().get(6)).startsWith("Client writes: the requests a DC's nodes coordinated");
        assertThat(md.lines().toList().get(2))
                .isEqualTo("| us-east-1 | 2 | 2 | 50 (20) | 100 | 2.00 (2) | 10.00 | 120 | 50 / 5.0 | 50 / 1.0 | 100.00 |");
        assertThat(md.lines().toList().get(3))
                .isEqualTo("| ap-southeast-2 | 1 | 1 | 0 (0) | 50 | 1.00 (1) | 5.00 | 20 | 50 / 1.0 | 50 / 5.0 | 50.00 |");
        assertThat(md.lines().toList().get(4)).startsWith("| **all** | 3 | 3 | 50 (20) | 150 | **3.00** (3) | 15.00 | 140 |");
    }

    @Test
    void perTableShowsEachWrittenTablePerTradeAndSkipsIdleOnes() {
        String md = AmplificationTable.perTable(wa);

        assertThat(md).startsWith("| table | us-east-1 | ap-southeast-2 |\n|---|---|---|\n");
        assertThat(md).contains("| customer_ledger | 4.00 | 2.00 |", "| open_orders | 4.00 | 2.00 |", "| order_inbox | 2.00 | 1.00 |");
        assertThat(md).doesNotContain("idle");
    }

    @Test
    void comparisonSetsMeasurementBesideTheory() {
        String md = AmplificationTable.comparison(List.of(wa), 4);

        // by design 4 x (2 + 1) = 12; measured 5 mutations per trade x 3 = 15 in theory; 150 replica writes / 10 trades; 6 KiB / 10 trades
        assertThat(md.lines().toList().get(2)).isEqualTo("| 2 | 2 + 1 | 10 | 12 | 5.00 | 15.00 | 15.00 | 1.000 | 14.00 | 0.60 | 83.33 |");
    }
}
