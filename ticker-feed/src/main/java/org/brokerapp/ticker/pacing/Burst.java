package org.brokerapp.ticker.pacing;

import java.time.Duration;

/**
 * A market-open surge: the rate is multiplied by {@code multiplier} for the first {@code duration}
 * of the run.
 */
public record Burst(double multiplier, Duration duration) {

    public static final Burst NONE = new Burst(1, Duration.ZERO);

    public Burst {
        if (!(multiplier > 0 && Double.isFinite(multiplier))) {
            throw new IllegalArgumentException("burst multiplier must be > 0, was " + multiplier);
        }
        if (duration == null || duration.isNegative()) {
            throw new IllegalArgumentException("burst duration must be >= 0, was " + duration);
        }
    }

    public boolean isNone() {
        return multiplier == 1 || duration.isZero();
    }

    @Override
    public String toString() {
        return isNone() ? "none" : Durations.format(multiplier) + "x for " + Durations.format(duration);
    }
}
