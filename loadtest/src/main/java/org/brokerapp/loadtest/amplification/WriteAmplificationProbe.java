package org.brokerapp.loadtest.amplification;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.loadtest.probe.ResultTable;
import org.brokerapp.loadtest.probe.WindowProbe;
import org.brokerapp.regions.RegionsModel;

/**
 * Write amplification over a load run's measured window: every Cassandra node's own counters
 * (over JMX) at the start and at the end, per DC, per trade (a trade = a limit or stop fill in the
 * window; MARKET executions add mutations without adding trades, so mixes with MARKET orders read high),
 * and per placed order: client writes (per table), LWTs, Paxos rows and replica writes, with what the cluster
 * does at rest (leases, polling) subtracted when the run measured an idle baseline.
 */
public final class WriteAmplificationProbe implements WindowProbe {

    /** The brokers' keyspace ({@code broker.keyspace}'s default), whose tables the probe counts. */
    public static final String BROKER_KEYSPACE = "broker";

    private final Supplier<ClusterSnapshot> meters;
    private final RegionsModel regions;
    private ClusterSnapshot idleStart;
    private WriteAmplification idle;
    private ClusterSnapshot before;

    public static WriteAmplificationProbe of(LocalStack stack) {
        return new WriteAmplificationProbe(ClusterMeters.of(stack, BROKER_KEYSPACE), stack.regions());
    }

    public WriteAmplificationProbe(ClusterMeters meters, RegionsModel regions) {
        this(meters::snapshot, regions);
    }

    /** Over the snapshots {@code meters} takes (a test gives its own). */
    WriteAmplificationProbe(Supplier<ClusterSnapshot> meters, RegionsModel regions) {
        this.meters = meters;
        this.regions = regions;
    }

    @Override
    public void idleStarted() {
        idleStart = meters.get();
    }

    @Override
    public void idleEnded() {
        idle = WriteAmplification.between(idleStart, meters.get(), 1, regions);
    }

    @Override
    public void windowStarted() {
        before = meters.get();
    }

    @Override
    public List<ResultTable> windowEnded(WindowFacts facts) {
        WriteAmplification wa;
        try {
            wa = WriteAmplification.between(before, meters.get(), Math.max(1, Math.round(facts.fills())), regions);
        } catch (IllegalStateException e) {
            // a node killed and started again in the window (a drill) has lost its counters (they went backwards), or not
            // registered them yet (the snapshot fails): the run goes on to its correctness check without this table
            return List.of(new ResultTable("Write amplification per DC", "DC", List.of("-"), List.of(),
                    "n/a: " + e.getMessage() + " (a node restarted in the window has no counters to compare)"));
        }
        return List.of(AmplificationTable.perDcTable(wa), perOrderTable(wa, idle, facts.ordersAccepted()));
    }

    /**
     * Per DC and for the whole cluster: what one placed order costs in Cassandra, gross and (with an
     * idle baseline) above the idle rate scaled to the window's length.
     */
    static ResultTable perOrderTable(WriteAmplification wa, WriteAmplification idle, long orders) {
        double scale = idle == null || idle.interval().isZero() ? 0 : wa.interval().toNanos() / (double) idle.interval().toNanos();
        List<ResultTable.Row> rows = new ArrayList<>();
        for (int i = 0; i < wa.dcs().size(); i++) {
            DcAmplification dc = wa.dcs().get(i);
            DcAmplification rest = idle == null ? null : idle.dcs().get(i);
            rows.add(new ResultTable.Row(dc.datacenter(), List.of(
                    perOrder(dc.clientMutations(), rest == null ? null : rest.clientMutations() * scale, orders),
                    perOrder(dc.casMutations(), rest == null ? null : rest.casMutations() * scale, orders),
                    perOrder(dc.paxosWrites(), rest == null ? null : rest.paxosWrites() * scale, orders),
                    perOrder(dc.replicaWrites(), rest == null ? null : rest.replicaWrites() * scale, orders))));
        }
        rows.add(new ResultTable.Row("**all**", List.of(
                perOrder(wa.clientMutations(), idle == null ? null : idle.clientMutations() * scale, orders),
                perOrder(sum(wa, DcAmplification::casMutations), idle == null ? null : sum(idle, DcAmplification::casMutations) * scale, orders),
                perOrder(sum(wa, DcAmplification::paxosWrites), idle == null ? null : sum(idle, DcAmplification::paxosWrites) * scale, orders),
                perOrder(wa.replicaWrites(), idle == null ? null : idle.replicaWrites() * scale, orders))));
        String note = (idle == null ? "No idle baseline: figures are gross. " : String.format(Locale.ROOT,
                "Each cell: per order in the window / the same above the idle rate (idle baseline %.0f s, scaled to the window). ",
                idle.interval().toMillis() / 1000.0))
                + String.format(Locale.ROOT, "%,d orders accepted in the window. LWTs are the conditional writes the DC's nodes coordinated "
                + "(every keyspace: leases included); Paxos rows are system.paxos writes on the DC's replicas.", orders);
        return new ResultTable("Cassandra work per placed order, from each node's metrics", "DC",
                List.of("client writes, per table", "LWTs (CAS writes)", "Paxos rows", "replica writes"), rows, note);
    }

    private static long sum(WriteAmplification wa, java.util.function.ToLongFunction<DcAmplification> f) {
        return wa.dcs().stream().mapToLong(f).sum();
    }

    private static String perOrder(long count, Double idleCount, long orders) {
        if (orders == 0) {
            return "-";
        }
        String gross = String.format(Locale.ROOT, "%.2f", count / (double) orders);
        return idleCount == null ? gross : gross + String.format(Locale.ROOT, " / %.2f", (count - idleCount) / orders);
    }
}
