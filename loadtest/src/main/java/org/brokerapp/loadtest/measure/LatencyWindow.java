package org.brokerapp.loadtest.measure;

import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

/** Interval histograms added up over a measured window, per measure. Used by one thread. */
public final class LatencyWindow {

    private final Map<String, Histogram> totals = new TreeMap<>();

    public void add(Map<String, Histogram> interval) {
        interval.forEach((name, h) -> totals.computeIfAbsent(name, n -> new Histogram(3)).add(h));
    }

    public Map<String, Histogram> totals() {
        return totals;
    }
}
