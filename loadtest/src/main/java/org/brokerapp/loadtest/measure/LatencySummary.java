package org.brokerapp.loadtest.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.brokerapp.loadtest.prometheus.PrometheusHistogram;

/**
 * The distribution of one measure over a window, in milliseconds. {@code curve} holds
 * (percentile, latency) points for the percentile chart. Broker-side measures come from Prometheus
 * buckets, whose percentiles are bucket upper bounds ({@code upperBounds} true) and whose mean and
 * maximum are unknown (-1). {@code p99Low} and {@code p99High} bound, with 95 % confidence, the p99 that
 * the samples' distribution has, where one window's p99 is only a sample of it ({@link #p99Ranks}); -1 when unknown.
 */
public record LatencySummary(long count, double p50, double p90, double p99, double p999, double max, double mean,
                             boolean upperBounds, List<Point> curve, double p99Low, double p99High) {

    /** One point of a percentile curve: {@code percentile} in [0, 100], latency in ms. */
    public record Point(double percentile, double millis) {
    }

    static final double[] CURVE_PERCENTILES = {0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99, 100};

    public static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0, 0, 0, 0, false, List.of(), -1, -1);

    /** Two-sided 95 %. */
    private static final double Z95 = 1.96;

    public static LatencySummary of(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return EMPTY;
        }
        List<Point> curve = new ArrayList<>();
        for (double p : CURVE_PERCENTILES) {
            curve.add(new Point(p, ms(micros.getValueAtPercentile(p))));
        }
        long n = micros.getTotalCount();
        long[] ranks = p99Ranks(n);
        return new LatencySummary(n, ms(micros.getValueAtPercentile(50)), ms(micros.getValueAtPercentile(90)),
                ms(micros.getValueAtPercentile(99)), ms(micros.getValueAtPercentile(99.9)), ms(micros.getMaxValue()),
                Math.round(micros.getMean()) / 1000.0, false, curve,
                ms(micros.getValueAtPercentile(100.0 * ranks[0] / n)), ms(micros.getValueAtPercentile(100.0 * ranks[1] / n)));
    }

    /** From a broker's Prometheus buckets: each percentile is the upper bound of its bucket; +Inf is reported as -1. */
    public static LatencySummary of(PrometheusHistogram buckets) {
        if (buckets.count() == 0) {
            return new LatencySummary(0, 0, 0, 0, 0, -1, -1, true, List.of(), -1, -1);
        }
        List<Point> curve = new ArrayList<>();
        for (double p : CURVE_PERCENTILES) {
            double millis = buckets.percentileMillis(p / 100);
            if (p > 0 && p < 100 && Double.isFinite(millis)) {
                curve.add(new Point(p, finite(millis)));
            }
        }
        return new LatencySummary(buckets.count(), finite(buckets.percentileMillis(0.5)), finite(buckets.percentileMillis(0.9)),
                finite(buckets.percentileMillis(0.99)), finite(buckets.percentileMillis(0.999)), -1, -1, true, curve, -1, -1);
    }

    /**
     * The ranks (1 = the fastest of {@code n}) between which the distribution's p99 lies with 95 % confidence, whatever the
     * distribution: how many of {@code n} samples fall below it is binomial (n, 0.99), here in its normal approximation. Of
     * 750 samples, the p99 is the 8th slowest, and the distribution's p99 lies between the 14th and the 2nd slowest.
     */
    static long[] p99Ranks(long n) {
        double mean = n * 0.99;
        double sd = Math.sqrt(n * 0.99 * 0.01);
        return new long[] {Math.max(1, (long) Math.floor(mean - Z95 * sd)), Math.min(n, (long) Math.ceil(mean + Z95 * sd) + 1)};
    }

    public boolean noSamples() {
        return count == 0;
    }

    /** The summary as a sorted map of name to value, for tables. */
    public Map<String, Double> percentiles() {
        return Map.of("p50", p50, "p90", p90, "p99", p99, "p99.9", p999);
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }

    private static double finite(double millis) {
        return Double.isFinite(millis) ? Math.round(millis * 1000) / 1000.0 : -1;
    }
}
