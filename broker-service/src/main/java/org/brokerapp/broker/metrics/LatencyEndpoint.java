package org.brokerapp.broker.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.stereotype.Component;

/**
 * {@code GET /actuator/latency}: the exact fill-latency histograms of {@link LatencyRecorder},
 * cumulative since this instance started, each in HdrHistogram's compressed Base64 encoding with its
 * sample count. A reader takes one snapshot at the start of its window and one at the end and
 * subtracts them ({@code Histogram.subtract}); an instance restarted in between shows as a smaller count.
 */
@Component
@Endpoint(id = "latency")
class LatencyEndpoint {

    /** One histogram: {@code histogram} decodes with {@code Histogram.decodeFromCompressedByteBuffer}. */
    record Encoded(long count, String histogram) {
    }

    /** Every histogram of this instance. */
    record Snapshot(String region, String unit, int significantDigits, Map<String, Encoded> histograms) {
    }

    private final LatencyRecorder recorder;
    private final String region;

    LatencyEndpoint(LatencyRecorder recorder, BrokerProperties properties) {
        this.recorder = recorder;
        this.region = properties.region();
    }

    @ReadOperation
    Snapshot latency() {
        Map<String, Encoded> encoded = new LinkedHashMap<>();
        recorder.snapshot().forEach((name, h) -> encoded.put(name, new Encoded(h.getTotalCount(), LatencyRecorder.encode(h))));
        return new Snapshot(region, "microseconds", LatencyRecorder.SIGNIFICANT_DIGITS, encoded);
    }
}
