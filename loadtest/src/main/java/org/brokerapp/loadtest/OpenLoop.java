package org.brokerapp.loadtest;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * Fires an operation at a fixed rate on its own thread, each at its intended start time whatever
 * the previous ones are doing (an open model: a slow system does not slow the load down). The
 * operation receives its intended start in nanoTime and must not block; latency measured from that
 * instant includes any time the operation waited behind a slow system (no coordinated omission).
 */
final class OpenLoop implements AutoCloseable {

    private final Thread thread;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong fired = new AtomicLong();
    private final AtomicLong maxLagNanos = new AtomicLong();

    OpenLoop(String name, double perSecond, LongConsumer operation) {
        long period = Math.round(1e9 / perSecond);
        thread = new Thread(() -> {
            long start = System.nanoTime();
            for (long i = 0; running.get(); i++) {
                long intended = start + i * period;
                long wait = intended - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                } else {
                    maxLagNanos.accumulateAndGet(-wait, Math::max);
                }
                operation.accept(intended);
                fired.incrementAndGet();
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    long fired() {
        return fired.get();
    }

    /** How far behind its schedule the loop itself ever fell (the load generator's own limit). */
    long maxLagMillis() {
        return maxLagNanos.get() / 1_000_000;
    }

    @Override
    public void close() {
        running.set(false);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
