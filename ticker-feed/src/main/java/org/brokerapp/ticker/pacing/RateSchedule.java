package org.brokerapp.ticker.pacing;

/**
 * When each tick of a constant-rate run is due, computed from its index alone: open loop, so a
 * slow send never moves a later tick's time (the sender falls behind and reports lag instead), and
 * no rounding error accumulates over a long run.
 *
 * @param ticksPerSecond the rate outside the burst, &gt; 0
 * @param burst          a faster (or slower) start, {@link Burst#NONE} for none
 */
public record RateSchedule(double ticksPerSecond, Burst burst) {

    public RateSchedule {
        if (!(ticksPerSecond > 0 && Double.isFinite(ticksPerSecond))) {
            throw new IllegalArgumentException("rate must be > 0 ticks per second, was " + ticksPerSecond);
        }
    }

    /** Nanoseconds after the start at which tick {@code index} (0-based) is due. */
    public long intendedNanos(long index) {
        long inBurst = ticksInBurst();
        if (index < inBurst) {
            return (long) (index * 1e9 / (ticksPerSecond * burst.multiplier()));
        }
        return (inBurst == 0 ? 0 : burst.duration().toNanos()) + (long) ((index - inBurst) * 1e9 / ticksPerSecond);
    }

    /** Ticks due before the burst ends: those whose time at the burst rate is earlier than its duration. */
    long ticksInBurst() {
        if (burst.isNone()) {
            return 0;
        }
        return (long) Math.ceil(ticksPerSecond * burst.multiplier() * burst.duration().toNanos() / 1e9);
    }
}
