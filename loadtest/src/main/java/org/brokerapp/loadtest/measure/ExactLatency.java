package org.brokerapp.loadtest.measure;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One broker's exact fill-latency histograms from {@code /actuator/latency}: HdrHistograms in
 * microseconds with 3 significant digits, cumulative since the broker started, by measure name
 * ({@value #TICK_TO_FILL}, {@value #RECEIPT_TO_FILL}). Two snapshots subtracted give exactly the
 * window's samples; their percentiles are within 0.1 % of the true values.
 */
public record ExactLatency(Map<String, Histogram> histograms) {

    public static final String TICK_TO_FILL = "tick-to-fill";
    public static final String RECEIPT_TO_FILL = "receipt-to-fill";
    public static final ExactLatency NONE = new ExactLatency(Map.of());

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public ExactLatency {
        histograms = Collections.unmodifiableMap(new LinkedHashMap<>(histograms)); // in the broker's order
    }

    /** Parses the endpoint's answer: {@code {"histograms": {"tick-to-fill": {"count": n, "histogram": "<base64>"}, ...}}}. */
    public static ExactLatency parse(String json) {
        JsonNode root = JSON.readTree(json);
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : root.path("histograms").properties()) {
            byte[] bytes = Base64.getDecoder().decode(e.getValue().path("histogram").asString());
            try {
                histograms.put(e.getKey(), Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0));
            } catch (DataFormatException ex) {
                throw new IllegalArgumentException("histogram '" + e.getKey() + "' does not decode: " + ex.getMessage(), ex);
            }
        }
        return new ExactLatency(histograms);
    }

    public boolean isEmpty() {
        return histograms.isEmpty();
    }

    /** The measures this snapshot has, in the broker's order. */
    public Set<String> measures() {
        return histograms.keySet();
    }

    public Histogram get(String measure) {
        return histograms.get(measure);
    }

    /** Both snapshots' samples together (two instances of a region); a measure only one has is kept as it is. */
    public ExactLatency plus(ExactLatency other) {
        Map<String, Histogram> sum = new LinkedHashMap<>();
        for (Map<String, Histogram> each : List.of(histograms, other.histograms)) {
            // an auto-resizing histogram of the same precision takes either side's range
            each.forEach((name, h) -> sum.computeIfAbsent(name, n -> new Histogram(h.getNumberOfSignificantValueDigits())).add(h));
        }
        return new ExactLatency(sum);
    }

    /**
     * The samples recorded since {@code earlier}. A measure that lost samples (the broker restarted in
     * between: its count went down, or some value's count did, though the new process may have
     * recorded more in all) has no known window and is left out, as is one missing from either
     * snapshot. The broker-kill drill's harness died on the second kind when a killed instance came
     * back inside the window.
     */
    public ExactLatency minus(ExactLatency earlier) {
        Map<String, Histogram> delta = new LinkedHashMap<>();
        histograms.forEach((name, now) -> {
            Histogram then = earlier.histograms.get(name);
            if (then != null && now.getTotalCount() >= then.getTotalCount()) {
                Histogram d = now.copy();
                try {
                    d.subtract(then);
                    delta.put(name, d);
                } catch (IllegalArgumentException restarted) {
                    // some value recorded before is not there any more
                }
            }
        });
        return new ExactLatency(delta);
    }
}
