package org.brokerapp.ticker.pacing;

import java.util.concurrent.locks.LockSupport;

/** The pacer's time: the system's monotonic clock, or a fake one in tests. */
public interface NanoClock {

    NanoClock SYSTEM = new NanoClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleep(long nanos) {
            LockSupport.parkNanos(nanos);
        }
    };

    /** Monotonic nanoseconds, as {@link System#nanoTime()}. */
    long nanoTime();

    /** Waits about this long; may return early. */
    void sleep(long nanos);
}
