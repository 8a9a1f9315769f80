package org.brokerapp.loadtest.amplification;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.brokerapp.loadtest.probe.ResultTable;
import org.brokerapp.loadtest.report.MarkdownReport;

/** Markdown tables of measured write amplification, for the console and {@code docs/benchmarks/README.md}. */
public final class AmplificationTable {

    private AmplificationTable() {
    }

    /** One row per DC and a row for the whole cluster, as markdown. */
    public static String perDc(WriteAmplification wa) {
        return MarkdownReport.tableBody(perDcTable(wa));
    }

    /** One row per DC and a row for the whole cluster, for the load harness's reports. */
    public static ResultTable perDcTable(WriteAmplification wa) {
        List<ResultTable.Row> rows = new ArrayList<>();
        for (DcAmplification dc : wa.dcs()) {
            rows.add(new ResultTable.Row(dc.datacenter(), List.of(Integer.toString(dc.nodes()), Integer.toString(dc.replicationFactor()),
                    String.format(Locale.ROOT, "%,d (%,d)", dc.clientMutations(), dc.casMutations()), String.format(Locale.ROOT, "%,d", dc.replicaWrites()),
                    String.format(Locale.ROOT, "%.2f (%d)", wa.measuredFactor(dc), dc.replicationFactor()),
                    String.format(Locale.ROOT, "%.2f", wa.perTrade(dc.replicaWrites())), String.format(Locale.ROOT, "%,d", dc.paxosWrites()),
                    traffic(dc.crossDcOut(), dc.crossDcMetered()), traffic(dc.crossDcIn(), dc.crossDcMetered()),
                    String.format(Locale.ROOT, "%.2f", wa.cpuSecondsPerNodePerThousandTrades(dc)))));
        }
        rows.add(new ResultTable.Row("**all**", List.of(Integer.toString(wa.dcs().stream().mapToInt(DcAmplification::nodes).sum()),
                Integer.toString(wa.theoreticalFactor()),
                String.format(Locale.ROOT, "%,d (%,d)", wa.clientMutations(), wa.dcs().stream().mapToLong(DcAmplification::casMutations).sum()),
                String.format(Locale.ROOT, "%,d", wa.replicaWrites()), String.format(Locale.ROOT, "**%.2f** (%d)", wa.measuredFactor(), wa.theoreticalFactor()),
                String.format(Locale.ROOT, "%.2f", wa.perTrade(wa.replicaWrites())),
                String.format(Locale.ROOT, "%,d", wa.dcs().stream().mapToLong(DcAmplification::paxosWrites).sum()),
                traffic(wa.crossDcTraffic(), wa.crossDcMetered()), traffic(wa.crossDcTraffic(), wa.crossDcMetered()), "-")));
        String note = "Client writes: the requests a DC's nodes coordinated, counted once per table each wrote (Cassandra's "
                + "CoordinatorWriteLatency). A batch writes each of its partitions on every replica, so batches within a table (the brokers' "
                + "last prices, ten symbols to one) write more per client write than the theory's RF."
                + (wa.crossDcMetered() ? "" : " n/a: Cassandra lost the connection counters of " + String.join(", ", wa.unmeteredLinks()));
        return new ResultTable(String.format(Locale.ROOT, "Write amplification per DC, measured from each node's metrics (keyspace %s, %,d trades)",
                wa.keyspace(), wa.trades()), "DC", List.of("nodes", "RF", "client writes coordinated, per table (of which LWT)", "replica writes",
                "replica writes per client write (theory: RF)", "replica writes per trade", "Paxos state writes", "cross-DC sent: messages / KiB",
                "cross-DC received: messages / KiB", "CPU s per node per 1,000 trades"), rows, note);
    }

    /** Replica writes per trade, per table and DC: where a trade's writes go. */
    public static String perTable(WriteAmplification wa) {
        StringBuilder md = new StringBuilder("| table |");
        wa.dcs().forEach(dc -> md.append(' ').append(dc.datacenter()).append(" |"));
        md.append("\n|---|").append("---|".repeat(wa.dcs().size())).append('\n');
        for (String table : wa.tables()) {
            md.append("| ").append(table).append(" |");
            wa.dcs().forEach(dc -> md.append(String.format(Locale.ROOT, " %.2f |", wa.perTrade(dc.replicaWritesByTable().getOrDefault(table, 0L)))));
            md.append('\n');
        }
        return md.toString();
    }

    /**
     * One row per deployment (e.g. 1, 2 and 3 DCs): measured per trade beside two theories: the
     * prototype's (the writes a trade makes by design, times the sum of RF) and the one from the
     * client mutations actually measured (which includes background writes and retries).
     */
    public static String comparison(List<WriteAmplification> runs, int designWritesPerTrade) {
        StringBuilder md = new StringBuilder();
        md.append("| DCs | RF per DC | trades | replica writes per trade: prototype-style theory (" + designWritesPerTrade + " x sum of RF) "
                + "| client mutations per trade, measured | replica writes per trade: theory from measured mutations | replica writes per trade, measured "
                + "| measured / theory | Paxos state writes per trade | cross-DC KiB per trade | CPU s per node per 1,000 trades (mean of nodes) |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (WriteAmplification wa : runs) {
            double mutations = wa.perTrade(wa.clientMutations());
            double theory = mutations * wa.theoreticalFactor();
            double measured = wa.perTrade(wa.replicaWrites());
            int nodes = wa.dcs().stream().mapToInt(DcAmplification::nodes).sum();
            double cpu = wa.dcs().stream().mapToDouble(DcAmplification::cpuSeconds).sum() / nodes * 1000 / wa.trades();
            String crossDc = wa.crossDcMetered() ? String.format(Locale.ROOT, "%.2f", wa.perTrade(wa.crossDcTraffic().bytes()) / 1024) : "n/a";
            md.append(String.format(Locale.ROOT, "| %d | %s | %,d | %d | %.2f | %.2f | %.2f | %.3f | %.2f | %s | %.2f |%n",
                    wa.dcs().size(), String.join(" + ", wa.dcs().stream().map(dc -> Integer.toString(dc.replicationFactor())).toList()),
                    wa.trades(), designWritesPerTrade * wa.theoreticalFactor(), mutations, theory, measured, measured / theory,
                    wa.perTrade(wa.dcs().stream().mapToLong(DcAmplification::paxosWrites).sum()),
                    crossDc, cpu));
        }
        return md.toString();
    }

    private static String traffic(PeerTraffic t, boolean metered) {
        return metered ? String.format(Locale.ROOT, "%,d / %,.1f", t.messages(), t.bytes() / 1024.0) : "n/a";
    }

    /** Every counter of every node over the interval, one per line: the raw material of the tables, for checking them. */
    public static String rawCounters(ClusterSnapshot delta) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "# keyspace %s, %.1f s%n", delta.keyspace(), delta.interval().toMillis() / 1000.0));
        for (NodeSnapshot n : delta.nodes()) {
            String node = n.node().name();
            out.append(String.format(Locale.ROOT, "%s client-writes %d%n%s client-cas-writes %d%n%s paxos-writes %d%n%s cpu-ms %d%n",
                    node, n.clientWrites(), node, n.clientCasWrites(), node, n.paxosWrites(), node, n.cpuNanos() / 1_000_000));
            n.coordinatorWrites().forEach((table, count) -> out.append(node).append(" coordinated ").append(table).append(' ').append(count).append('\n'));
            n.replicaWrites().forEach((table, count) -> out.append(node).append(" applied ").append(table).append(' ').append(count).append('\n'));
            n.outbound().forEach((peer, t) -> out.append(node).append(" sent-to ").append(peer).append(' ').append(t.messages()).append(" messages ")
                    .append(t.bytes()).append(" bytes\n"));
        }
        return out.toString();
    }
}
