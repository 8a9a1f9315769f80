package org.brokerapp.loadtest.prometheus;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cumulative buckets of one Prometheus histogram, as scraped from a broker. Two scrapes
 * subtracted give the distribution of exactly the measurement window; a percentile is reported as
 * the upper bound of the bucket it falls in (Micrometer's buckets are about 10 % apart).
 */
public record PrometheusHistogram(TreeMap<Double, Long> cumulative) {

    public static PrometheusHistogram parse(String exposition, String name, String region) {
        Pattern bucket = Pattern.compile("^" + Pattern.quote(name) + "_bucket\\{([^}]*)\\} ([0-9.eE+]+)$", Pattern.MULTILINE);
        TreeMap<Double, Long> cumulative = new TreeMap<>();
        Matcher m = bucket.matcher(exposition);
        while (m.find()) {
            String labels = m.group(1);
            if (!labels.contains("region=\"" + region + "\"")) {
                continue;
            }
            Matcher le = Pattern.compile("le=\"([^\"]+)\"").matcher(labels);
            if (le.find()) {
                double bound = le.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le.group(1));
                cumulative.put(bound, (long) Double.parseDouble(m.group(2)));
            }
        }
        return new PrometheusHistogram(cumulative);
    }

    public static final PrometheusHistogram EMPTY = new PrometheusHistogram(new TreeMap<>());

    /** The sum of every sample of a counter whose labels include {@code region} and all of {@code labels} (e.g. {@code outcome="filled"}). */
    public static double counter(String exposition, String name, String region, String... labels) {
        Pattern sample = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\} ([0-9.eE+-]+)$", Pattern.MULTILINE);
        double sum = 0;
        Matcher m = sample.matcher(exposition);
        while (m.find()) {
            String found = m.group(1);
            boolean all = found.contains("region=\"" + region + "\"");
            for (String label : labels) {
                all &= found.contains(label);
            }
            if (all) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    public PrometheusHistogram minus(PrometheusHistogram earlier) {
        TreeMap<Double, Long> diff = new TreeMap<>();
        for (Map.Entry<Double, Long> e : cumulative.entrySet()) {
            diff.put(e.getKey(), e.getValue() - earlier.cumulative.getOrDefault(e.getKey(), 0L));
        }
        return new PrometheusHistogram(diff);
    }

    /** Two histograms added up, e.g. two regions' (a bound one lacks counts what it had at its next lower bound). */
    public PrometheusHistogram plus(PrometheusHistogram other) {
        TreeMap<Double, Long> sum = new TreeMap<>();
        java.util.TreeSet<Double> bounds = new java.util.TreeSet<>(cumulative.keySet());
        bounds.addAll(other.cumulative.keySet());
        for (double bound : bounds) {
            sum.put(bound, at(bound) + other.at(bound));
        }
        return new PrometheusHistogram(sum);
    }

    private long at(double bound) {
        Map.Entry<Double, Long> e = cumulative.floorEntry(bound);
        return e == null ? 0 : e.getValue();
    }

    public long count() {
        return cumulative.isEmpty() ? 0 : cumulative.lastEntry().getValue();
    }

    /** Upper bound, in milliseconds, of the bucket holding the q-quantile. */
    public double percentileMillis(double q) {
        long total = count();
        if (total == 0) {
            return Double.NaN;
        }
        for (Map.Entry<Double, Long> e : cumulative.entrySet()) {
            if (e.getValue() >= Math.ceil(q * total)) {
                return e.getKey() * 1000;
            }
        }
        return Double.POSITIVE_INFINITY;
    }
}
