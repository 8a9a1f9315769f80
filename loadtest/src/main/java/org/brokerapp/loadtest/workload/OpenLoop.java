package org.brokerapp.loadtest.workload;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * Fires an operation on its own thread at the times its {@link Arrivals} say, each at its
 * intended start time whatever the previous ones are doing (an open model: a slow system does not
 * slow the load down). The operation receives its intended start in nanoTime and must not block;
 * latency measured from that instant includes any time the operation waited behind a slow system
 * (no coordinated omission).
 */
public final class OpenLoop implements AutoCloseable {

    private final Thread thread;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong fired = new AtomicLong();
    private final AtomicLong maxLagNanos = new AtomicLong();

    public OpenLoop(String name, double perSecond, LongConsumer operation) {
        this(name, RateSchedule.steady(perSecond), operation);
    }

    public OpenLoop(String name, Arrivals schedule, LongConsumer operation) {
        this(name, schedule, Duration.ZERO, operation);
    }

    /**
     * Calls each operation {@code lead} before its intended start, with that start: an operation that
     * hands its work to another thread waits there for its time itself, and the hand-over is not
     * in its latency.
     */
    public OpenLoop(String name, Arrivals schedule, Duration lead, LongConsumer operation) {
        long leadNanos = lead.toNanos();
        thread = new Thread(() -> {
            long start = System.nanoTime();
            for (long i = 0; running.get(); i++) {
                long intended = start + schedule.offsetNanos(i);
                long wait = intended - leadNanos - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                    if (!running.get()) {
                        break;
                    }
                } else {
                    maxLagNanos.accumulateAndGet(-wait - leadNanos, Math::max);
                }
                try {
                    operation.accept(intended);
                } catch (RuntimeException e) {
                    // an operation's own failure is its to record; the schedule goes on
                }
                fired.incrementAndGet();
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    public long fired() {
        return fired.get();
    }

    /** How far behind its schedule the loop itself ever fell (the load generator's own limit). */
    public long maxLagMillis() {
        return maxLagNanos.get() / 1_000_000;
    }

    @Override
    public void close() {
        running.set(false);
        LockSupport.unpark(thread);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
