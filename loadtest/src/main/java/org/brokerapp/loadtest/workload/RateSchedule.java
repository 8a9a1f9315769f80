package org.brokerapp.loadtest.workload;

/**
 * When the i-th operation of an open-model loop is due: a linear ramp from zero to {@code perSecond}
 * over {@code rampSeconds}, then the steady rate. Pure arithmetic, so the schedule of a run is
 * exactly reproducible; operation i starts when the cumulative count of the rate curve reaches i.
 *
 * <p>During the ramp the rate at time t is {@code perSecond * t / ramp}, so the count is
 * {@code perSecond * t^2 / (2 ramp)}; after it, {@code perSecond * ramp / 2 + perSecond * (t - ramp)}.
 */
public record RateSchedule(double perSecond, double rampSeconds) implements Arrivals {

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

    @Override
    public long offsetNanos(long i) {
        return offsetNanosAt(i);
    }

    /** Nanoseconds from the start at which the rate curve's cumulative count reaches {@code count}. */
    public long offsetNanosAt(double count) {
        double rampCount = perSecond * rampSeconds / 2;
        double seconds = count < rampCount
                ? Math.sqrt(2 * rampSeconds * count / perSecond)
                : rampSeconds + (count - rampCount) / perSecond;
        return Math.round(seconds * 1e9);
    }

    /** The intended rate at {@code seconds} after the start. */
    public double rateAt(double seconds) {
        return seconds >= rampSeconds ? perSecond : perSecond * seconds / rampSeconds;
    }
}
