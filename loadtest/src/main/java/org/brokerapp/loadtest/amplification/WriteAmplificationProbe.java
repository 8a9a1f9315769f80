package org.brokerapp.loadtest.amplification;

import org.brokerapp.infra.LocalStack;
import org.brokerapp.loadtest.report.ResultTable;
import org.brokerapp.loadtest.run.WindowProbe;
import org.brokerapp.regions.RegionsModel;

/**
 * Write amplification over a load run's measured window: every Cassandra node's own counters
 * (over JMX) at the start and at the end, per DC, per trade (a trade = a limit or stop fill in the
 * window; MARKET executions add mutations without adding trades, so mixes with MARKET orders read high).
 */
public final class WriteAmplificationProbe implements WindowProbe {

    /** The brokers' keyspace ({@code broker.keyspace}'s default), whose tables the probe counts. */
    public static final String BROKER_KEYSPACE = "broker";

    private final ClusterMeters meters;
    private final RegionsModel regions;
    private ClusterSnapshot before;

    public static WriteAmplificationProbe of(LocalStack stack) {
        return new WriteAmplificationProbe(ClusterMeters.of(stack, BROKER_KEYSPACE), stack.regions());
    }

    public WriteAmplificationProbe(ClusterMeters meters, RegionsModel regions) {
        this.meters = meters;
        this.regions = regions;
    }

    @Override
    public void windowStarted() {
        before = meters.snapshot();
    }

    @Override
    public ResultTable windowEnded(WindowFacts facts) {
        WriteAmplification wa = WriteAmplification.between(before, meters.snapshot(), Math.max(1, Math.round(facts.fills())), regions);
        return AmplificationTable.perDcTable(wa);
    }
}
