package org.brokerapp.loadtest.workload;

/**
 * When the i-th operation of an open-model loop is due: a linear ramp from zero to {@code perSecond}
 * over {@code rampSeconds}, then the steady rate. Pure arithmetic, so the schedule of a run is
 * exactly reproducible; operation i starts when the cumulative count of the rate curve reaches i.
 *
 * <p>During the ramp the rate at time t is {@code perSecond * t / ramp}, so the count is
 * {@code perSecond * t^2 / (2 ramp)}; after it, {@code perSecond * ramp / 2 + perSecond * (t - ramp)}.
 */
public record RateSchedule(double perSecond, double rampSeconds) {

    public RateSchedule {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException("rate must be > 0, was " + perSecond);
        }
        if (!(rampSeconds >= 0) || Double.isInfinite(rampSeconds)) {
            throw new IllegalArgumentException("ramp-up must be >= 0 s, was " + rampSeconds);
        }
    }

    public static RateSchedule steady(double perSecond) {
        return new RateSchedule(perSecond, 0);
    }

    /** Nanoseconds from the loop's start at which operation {@code i} (from 0) is intended to start. */
    public long offsetNanos(long i) {
        double rampCount = perSecond * rampSeconds / 2;
        double seconds = i < rampCount
                ? Math.sqrt(2 * rampSeconds * i / perSecond)
                : rampSeconds + (i - rampCount) / perSecond;
        return Math.round(seconds * 1e9);
    }

    /** The intended rate at {@code seconds} after the start. */
    public double rateAt(double seconds) {
        return seconds >= rampSeconds ? perSecond : perSecond * seconds / rampSeconds;
    }
}
