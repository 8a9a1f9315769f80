package org.brokerapp.loadtest.sla;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.brokerapp.loadtest.report.SlaResult;

/**
 * The stepping logic of an SLA search, pure: the caller soaks each step and reports what it saw;
 * this says whether the step passed and which rate comes next, and stops at the first failing step
 * (or after the last planned one). A step passes when brokers filled something, p99 ticker-to-fill
 * is under the SLA, the load was sustained (enough of the target order rate accepted) and few orders failed.
 */
public final class SlaSteps {

    /** What one step's window showed. */
    public record Observation(double ordersPerSecond, double ticksPerSecond, double achievedOrdersPerSecond, double fillsPerSecond,
                              long tickToFillCount, double tickToFillP99Millis, long ordersFailed, long ordersSent) {
    }

    private final SlaPlan plan;
    private final List<SlaResult.Step> steps = new ArrayList<>();
    private boolean done;

    public SlaSteps(SlaPlan plan) {
        this.plan = plan;
    }

    public boolean done() {
        return done;
    }

    /** The order rate of the next step to run. */
    public double nextOrdersPerSecond() {
        if (done) {
            throw new IllegalStateException("the search is over");
        }
        return plan.ordersAt(steps.size());
    }

    /** Records the step just run and returns its verdict. */
    public SlaResult.Step record(Observation o) {
        if (done) {
            throw new IllegalStateException("the search is over");
        }
        double errorShare = o.ordersSent() == 0 ? 0 : (double) o.ordersFailed() / o.ordersSent();
        String reason;
        if (o.tickToFillCount() == 0) {
            reason = "no fills measured";
        } else if (!(o.tickToFillP99Millis() >= 0) || o.tickToFillP99Millis() >= plan.slaMillis()) {
            reason = o.tickToFillP99Millis() < 0 ? "p99 ticker-to-fill beyond the largest bucket"
                    : String.format(Locale.ROOT, "p99 ticker-to-fill %.1f ms >= SLA %.1f ms", o.tickToFillP99Millis(), plan.slaMillis());
        } else if (o.achievedOrdersPerSecond() < plan.minAchievedShare() * o.ordersPerSecond()) {
            reason = String.format(Locale.ROOT, "not sustained: %.1f of %.1f orders/s accepted", o.achievedOrdersPerSecond(), o.ordersPerSecond());
        } else if (errorShare > plan.maxErrorShare()) {
            reason = String.format(Locale.ROOT, "%.1f%% of orders failed", errorShare * 100);
        } else {
            reason = "passed";
        }
        boolean passed = reason.equals("passed");
        SlaResult.Step step = new SlaResult.Step(steps.size() + 1, o.ordersPerSecond(), o.ticksPerSecond(), o.achievedOrdersPerSecond(),
                o.fillsPerSecond(), o.tickToFillCount(), o.tickToFillP99Millis(), errorShare, passed, reason);
        steps.add(step);
        done = !passed || steps.size() >= plan.maxSteps();
        return step;
    }

    /** The highest passing step: the steps pass in order up to the first failure, so it is the last passing one. */
    public Optional<SlaResult.Step> answer() {
        return steps.stream().filter(SlaResult.Step::passed).reduce((a, b) -> b);
    }

    public SlaResult result() {
        Optional<SlaResult.Step> answer = answer();
        boolean bounded = steps.stream().anyMatch(s -> !s.passed());
        String verdict;
        if (answer.isEmpty()) {
            verdict = String.format(Locale.ROOT, "no step met the SLA of %.1f ms p99 ticker-to-fill; the first (%.0f orders/s) failed: %s",
                    plan.slaMillis(), steps.isEmpty() ? plan.startOrders() : steps.get(0).ordersPerSecond(),
                    steps.isEmpty() ? "not run" : steps.get(0).reason());
        } else if (bounded) {
            verdict = String.format(Locale.ROOT, "highest sustained load under p99 ticker-to-fill %.1f ms: %.0f orders/s (%.0f ticks/s, %.0f fills/s)",
                    plan.slaMillis(), answer.get().ordersPerSecond(), answer.get().ticksPerSecond(), answer.get().fillsPerSecond());
        } else {
            verdict = String.format(Locale.ROOT, "every step passed up to %.0f orders/s: the limit is higher (raise --sla-max-steps)",
                    answer.get().ordersPerSecond());
        }
        return new SlaResult(plan.slaMillis(), List.copyOf(steps), answer.map(SlaResult.Step::ordersPerSecond).orElse(null),
                answer.map(SlaResult.Step::ticksPerSecond).orElse(null), answer.map(SlaResult.Step::fillsPerSecond).orElse(null), verdict);
    }
}
