package org.brokerapp.ticker.pacing;

import java.util.Iterator;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.brokerapp.ticker.Tick;

/**
 * Sends each tick at its intended time, open loop: the time a tick is due comes from the schedule,
 * never from when the previous send finished. If sending is slow (Kafka's buffer full, a GC pause),
 * the pacer does not slow the schedule down; it sends overdue ticks at once and reports how far
 * behind it is (lag = now - due, at hand-over).
 */
public final class Pacer {

    /** Longest single wait, so a stop request is noticed within this time even between sparse ticks. */
    static final long MAX_SLEEP_NANOS = 100_000_000;

    private final NanoClock clock;
    private final BooleanSupplier stopRequested;

    public Pacer(NanoClock clock, BooleanSupplier stopRequested) {
        this.clock = clock;
        this.stopRequested = stopRequested;
    }

    /** Sends every tick of {@code ticks} (or until a stop is requested); returns when done. */
    public void run(Iterator<ScheduledTick> ticks, Consumer<Tick> sender, PacingStats stats) {
        long start = clock.nanoTime();
        stats.started(start);
        try {
            while (!stopRequested.getAsBoolean() && ticks.hasNext()) {
                // the tick is built before waiting, so building it costs no lag
                ScheduledTick next = ticks.next();
                long due = start + next.intendedNanos();
                long now = clock.nanoTime();
                while (now < due) {
                    if (stopRequested.getAsBoolean()) {
                        return;
                    }
                    clock.sleep(Math.min(due - now, MAX_SLEEP_NANOS));
                    now = clock.nanoTime();
                }
                sender.accept(next.tick());
                stats.sent(next.intendedNanos(), now - due);
            }
        } finally {
            stats.ended(clock.nanoTime());
        }
    }
}
