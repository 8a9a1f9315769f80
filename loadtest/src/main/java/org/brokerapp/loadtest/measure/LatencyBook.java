package org.brokerapp.loadtest.measure;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The client-side latencies of a run, one HdrHistogram {@link Recorder} per named measure, in
 * microseconds from each operation's intended start (so a stalled system shows as latency, not as
 * fewer samples). Recording is wait-free and safe from any thread; {@link #sampleInterval} hands
 * out what was recorded since the previous call.
 */
public final class LatencyBook {

    private final Map<String, Recorder> recorders = new ConcurrentHashMap<>();

    /** Records now minus the intended start, in microseconds (at least 1). */
    public void record(String measure, long intendedStartNanos) {
        recordMicros(measure, Math.max(1, (System.nanoTime() - intendedStartNanos) / 1_000));
    }

    public void recordMicros(String measure, long micros) {
        recorders.computeIfAbsent(measure, m -> new Recorder(3)).recordValue(Math.max(1, micros));
    }

    /** Every measure's histogram of what was recorded since the previous call, by name. */
    public Map<String, Histogram> sampleInterval() {
        Map<String, Histogram> interval = new TreeMap<>();
        recorders.forEach((name, recorder) -> interval.put(name, recorder.getIntervalHistogram()));
        return interval;
    }
}
