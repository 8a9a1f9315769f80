package org.brokerapp.ticker.pacing;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * What the pacer did, readable from another thread while it runs: ticks sent and how far behind
 * schedule each was when handed to the sender (lag).
 */
public final class PacingStats {

    private final SingleWriterRecorder lag = new SingleWriterRecorder(2);
    private final Histogram totalLag = new Histogram(2);
    private Histogram interval;
    private volatile long sent;
    private volatile long lastLagNanos;
    private volatile long lastIntendedNanos;
    private volatile long startNanos;
    private volatile long endNanos;
    private volatile boolean started;
    private volatile boolean ended;

    void started(long nanos) {
        startNanos = nanos;
        started = true;
    }

    void sent(long intendedNanos, long lagNanos) {
        lag.recordValue(lagNanos);
        lastLagNanos = lagNanos;
        lastIntendedNanos = intendedNanos;
        sent = sent + 1;
    }

    void ended(long nanos) {
        endNanos = nanos;
        ended = true;
    }

    /** True between the pacer's start and its end. */
    public boolean isRunning() {
        return started && !ended;
    }

    public long sent() {
        return sent;
    }

    /** Lag of the latest tick sent. */
    public long lastLagNanos() {
        return lastLagNanos;
    }

    /** When the latest tick sent was due, after the start. */
    public long lastIntendedNanos() {
        return lastIntendedNanos;
    }

    public long startNanos() {
        return startNanos;
    }

    /** When the pacer stopped; valid once it has. */
    public long endNanos() {
        return endNanos;
    }

    /**
     * The lag of the ticks sent since the previous call, also folded into {@link #totalLag()}. One
     * reader (the progress reporter) calls it.
     */
    public synchronized Histogram takeIntervalLag() {
        interval = lag.getIntervalHistogram(interval);
        totalLag.add(interval);
        return interval;
    }

    /** Lag of every tick sent so far. */
    public synchronized Histogram totalLag() {
        takeIntervalLag();
        return totalLag.copy();
    }
}
