package org.brokerapp.loadtest.run;

import java.time.Duration;
import java.util.List;

/**
 * When a target at rest has settled: the CPU rate of its processes, read over equal steps, has
 * stopped falling. A broker's start goes on working through the servers for minutes after it is
 * ready (leases taken, accounts seeded, each request path compiled for the first time, Cassandra's
 * first compactions). An idle baseline taken during that work reads above the load window itself:
 * 199 % of one core after a fixed 30 s, 77 % after 120 s, the same host and command (issue #11).
 *
 * <p>A step's rate counts as no longer falling when it is at most {@code tolerance} of the step
 * before below it, or {@code slackCores} of a core, whichever is larger: at rest the rate is a
 * few tenths of a core and a step's noise is a few hundredths. A rate at the machine's cores says
 * nothing either way: saturated, the servers burn every core whether their start-up work is ending
 * or not (the prototype preset's baseline once "settled" at 198 % of two cores after 60 s).
 *
 * @param step           how long each reading of the rate lasts
 * @param atLeast        settled no sooner than this
 * @param atMost         taken as settled after this, even if the rate still falls (the baseline then says so)
 * @param tolerance      a fall smaller than this share of the step before is not a fall
 * @param slackCores     nor one smaller than this many cores
 * @param saturatedCores a rate at or above this many cores is the machine saturated, never settled
 */
public record Settling(Duration step, Duration atLeast, Duration atMost, double tolerance, double slackCores, double saturatedCores) {

    /** The harness's rule: 30-s steps, at most ten minutes, a fall under 10 % or 3 % of a core is noise, 90 % of the cores is saturated. */
    public static Settling after(Duration atLeast, int cores) {
        return new Settling(Duration.ofSeconds(30), atLeast, Duration.ofMinutes(10), 0.10, 0.03, 0.9 * cores);
    }

    public Settling {
        if (step.isNegative() || step.isZero() || atMost.compareTo(atLeast) < 0) {
            throw new IllegalArgumentException("settling needs a positive step and atMost >= atLeast");
        }
    }

    /** What the rates read so far say. */
    public enum Verdict { SETTLING, SETTLED, GAVE_UP }

    /**
     * @param stepRates the rate over each step so far, in cores, oldest first
     * @param elapsed   the time since settling began
     */
    public Verdict judge(List<Double> stepRates, Duration elapsed) {
        if (elapsed.compareTo(atLeast) >= 0 && stepRates.size() >= 2) {
            double before = stepRates.get(stepRates.size() - 2);
            double last = stepRates.get(stepRates.size() - 1);
            if (last < saturatedCores && before - last <= Math.max(tolerance * before, slackCores)) {
                return Verdict.SETTLED;
            }
        }
        return elapsed.compareTo(atMost) >= 0 ? Verdict.GAVE_UP : Verdict.SETTLING;
    }
}
