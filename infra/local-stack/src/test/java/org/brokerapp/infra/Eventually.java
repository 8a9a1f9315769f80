package org.brokerapp.infra;

import java.time.Duration;
import java.util.function.Supplier;

/** Polls until a value appears: for things that become true through replication, not at once. */
final class Eventually {

    private Eventually() {
    }

    static <T> T within(Duration timeout, Supplier<T> probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T value = probe.get();
            if (value != null) {
                return value;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("nothing appeared within " + timeout.toMillis() + " ms");
            }
            ServerProcess.sleep(Duration.ofMillis(20));
        }
    }
}
