package org.brokerapp.loadtest.amplification;

import java.util.List;
import java.util.Locale;

/** Markdown tables of measured write amplification, for the console and {@code docs/BENCHMARKS.md}. */
public final class AmplificationTable {

    private AmplificationTable() {
    }

    /** One row per DC and a row for the whole cluster. */
    public static String perDc(WriteAmplification wa) {
        StringBuilder md = new StringBuilder();
        md.append("| DC | nodes | RF | client mutations coordinated (of which LWT) | replica writes | replica writes per client mutation (theory) "
                + "| replica writes per trade | Paxos state writes | cross-DC sent: messages / KiB | cross-DC received: messages / KiB "
                + "| CPU s per node per 1,000 trades |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (DcAmplification dc : wa.dcs()) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %d | %,d (%,d) | %,d | %.2f (%d) | %.2f | %,d | %s | %s | %.2f |%n",
                    dc.datacenter(), dc.nodes(), dc.replicationFactor(), dc.clientMutations(), dc.casMutations(), dc.replicaWrites(),
                    wa.measuredFactor(dc), dc.replicationFactor(), wa.perTrade(dc.replicaWrites()), dc.paxosWrites(),
                    traffic(dc.crossDcOut()), traffic(dc.crossDcIn()), wa.cpuSecondsPerNodePerThousandTrades(dc)));
        }
        md.append(String.format(Locale.ROOT, "| **all** | %d | %d | %,d (%,d) | %,d | **%.2f** (%d) | %.2f | %,d | %s | %s | - |%n",
                wa.dcs().stream().mapToInt(DcAmplification::nodes).sum(), wa.theoreticalFactor(), wa.clientMutations(),
                wa.dcs().stream().mapToLong(DcAmplification::casMutations).sum(), wa.replicaWrites(), wa.measuredFactor(), wa.theoreticalFactor(),
                wa.perTrade(wa.replicaWrites()), wa.dcs().stream().mapToLong(DcAmplification::paxosWrites).sum(),
                traffic(wa.crossDcTraffic()), traffic(wa.crossDcTraffic())));
        return md.toString();
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

    /** One row per deployment (e.g. 1, 2 and 3 DCs): measured per trade beside theory. */
    public static String comparison(List<WriteAmplification> runs) {
        StringBuilder md = new StringBuilder();
        md.append("| DCs | RF per DC | trades | client mutations per trade | replica writes per trade: measured | theory (mutations per trade x sum of RF) "
                + "| measured / theory | Paxos state writes per trade | cross-DC KiB per trade | CPU s per node per 1,000 trades (mean of nodes) |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (WriteAmplification wa : runs) {
            double mutations = wa.perTrade(wa.clientMutations());
            double theory = mutations * wa.theoreticalFactor();
            double measured = wa.perTrade(wa.replicaWrites());
            int nodes = wa.dcs().stream().mapToInt(DcAmplification::nodes).sum();
            double cpu = wa.dcs().stream().mapToDouble(DcAmplification::cpuSeconds).sum() / nodes * 1000 / wa.trades();
            md.append(String.format(Locale.ROOT, "| %d | %s | %,d | %.2f | %.2f | %.2f | %.3f | %.2f | %.2f | %.2f |%n",
                    wa.dcs().size(), String.join(" + ", wa.dcs().stream().map(dc -> Integer.toString(dc.replicationFactor())).toList()),
                    wa.trades(), mutations, measured, theory, measured / theory,
                    wa.perTrade(wa.dcs().stream().mapToLong(DcAmplification::paxosWrites).sum()),
                    wa.perTrade(wa.crossDcTraffic().bytes()) / 1024, cpu));
        }
        return md.toString();
    }

    private static String traffic(PeerTraffic t) {
        return String.format(Locale.ROOT, "%,d / %,.1f", t.messages(), t.bytes() / 1024.0);
    }
}
