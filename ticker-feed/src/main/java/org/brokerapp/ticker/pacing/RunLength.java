package org.brokerapp.ticker.pacing;

import java.time.Duration;

/** When a simulated run ends. */
public sealed interface RunLength {

    /** True once the tick of this index, due at this time, is beyond the end of the run. */
    boolean isOver(long index, long intendedNanos);

    /** A fixed number of ticks. */
    record Count(long ticks) implements RunLength {
        public Count {
            if (ticks < 1) {
                throw new IllegalArgumentException("count must be >= 1, was " + ticks);
            }
        }

        @Override
        public boolean isOver(long index, long intendedNanos) {
            return index >= ticks;
        }

        @Override
        public String toString() {
            return ticks + " ticks";
        }
    }

    /** Every tick due before this much time has passed. */
    record Lasting(Duration duration) implements RunLength {
        public Lasting {
            if (duration == null || duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("duration must be > 0, was " + duration);
            }
        }

        @Override
        public boolean isOver(long index, long intendedNanos) {
            return intendedNanos >= duration.toNanos();
        }

        @Override
        public String toString() {
            return Durations.format(duration);
        }
    }

    /** Until the feed is stopped (Ctrl-C). */
    record Unbounded() implements RunLength {
        @Override
        public boolean isOver(long index, long intendedNanos) {
            return false;
        }

        @Override
        public String toString() {
            return "until stopped";
        }
    }
}
