package org.brokerapp.loadtest.sla;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.brokerapp.infra.host.Progress;
import org.brokerapp.loadtest.measure.Measures;
import org.brokerapp.loadtest.report.MeasureResult;
import org.brokerapp.loadtest.report.SlaResult;
import org.brokerapp.loadtest.report.WindowResult;
import org.brokerapp.loadtest.run.Harness;
import org.brokerapp.loadtest.workload.WorkloadSpec;

/**
 * Steps the load up on one harness until p99 ticker-to-fill breaks the SLA (as in the Kafka "Kongo"
 * study): every step scales the base load's order, tick and floor rates together and soaks it for
 * the configured ramp-up, warm-up and duration.
 */
public final class SlaSearch {

    /** The search's table and the windows of its steps, in order. */
    public record Outcome(SlaResult result, List<WindowResult> windows) {

        /** The highest passing step's window, else the first step's. */
        public WindowResult representative() {
            for (int i = result.steps().size() - 1; i >= 0; i--) {
                if (result.steps().get(i).passed()) {
                    return windows.get(i);
                }
            }
            return windows.get(0);
        }
    }

    private final Harness harness;
    private final Progress progress;

    public SlaSearch(Harness harness, Progress progress) {
        this.harness = harness;
        this.progress = progress;
    }

    public Outcome run(WorkloadSpec base, SlaPlan plan) throws InterruptedException {
        SlaSteps steps = new SlaSteps(plan);
        List<WindowResult> windows = new ArrayList<>();
        while (!steps.done()) {
            double orders = steps.nextOrdersPerSecond();
            WorkloadSpec spec = base.scaled(orders / base.ordersPerSecond());
            progress.step(String.format(Locale.ROOT, "SLA search step %d: %.0f orders/s, %.0f ticks/s", windows.size() + 1, orders,
                    spec.ticksPerSecond()));
            WindowResult w = harness.measure(spec);
            windows.add(w);
            MeasureResult tickToFill = tickToFill(w);
            SlaResult.Step step = steps.record(new SlaSteps.Observation(orders, spec.ticksPerSecond(), w.throughput().ordersAccepted(),
                    w.throughput().fills(), tickToFill == null ? 0 : tickToFill.latency().count(),
                    tickToFill == null ? -1 : tickToFill.latency().p99(),
                    Math.round(w.throughput().ordersFailed() * w.seconds()), Math.round(w.throughput().ordersSent() * w.seconds())));
            progress.step(String.format(Locale.ROOT, "SLA search step %d: %s", step.step(), step.reason()));
        }
        return new Outcome(steps.result(), windows);
    }

    /** Ticker-to-fill of all regions together (or the only region's). */
    static MeasureResult tickToFill(WindowResult w) {
        return w.acrossRegions(Measures.TICKER_TO_FILL).orElse(null);
    }
}
