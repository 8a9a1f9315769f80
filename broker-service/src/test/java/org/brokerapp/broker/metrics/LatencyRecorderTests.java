package org.brokerapp.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyRecorderTests {

    @Test
    void percentilesAreWithinATenthOfAPercentOfTheSamples() {
        LatencyRecorder recorder = new LatencyRecorder();
        // 1..1000 ms: the true p50 is 500 ms, p99 990 ms, max 1000 ms
        for (int ms = 1; ms <= 1000; ms++) {
            recorder.filled(Duration.ofMillis(ms), Duration.ofMillis(ms / 2));
        }

        Histogram tickToFill = recorder.snapshot().get(LatencyRecorder.TICK_TO_FILL);

        assertThat(tickToFill.getTotalCount()).isEqualTo(1000);
        assertThat(tickToFill.getValueAtPercentile(50)).isCloseTo(500_000L, within(500L));
        assertThat(tickToFill.getValueAtPercentile(99)).isCloseTo(990_000L, within(990L));
        assertThat(tickToFill.getMaxValue()).isCloseTo(1_000_000L, within(1_000L));
        assertThat(recorder.snapshot().get(LatencyRecorder.RECEIPT_TO_FILL).getMaxValue()).isCloseTo(500_000L, within(500L));
    }

    @Test
    void aPlacementStepIsTimedWhenItIsDurableAndNotAtAllWhenItFails() {
        LatencyRecorder recorder = new LatencyRecorder();
        CompletableFuture<Void> rows = new CompletableFuture<>();
        CompletableFuture<Void> event = new CompletableFuture<>();
        long sent = System.nanoTime() - Duration.ofMillis(40).toNanos();

        recorder.whenDone(LatencyRecorder.PLACEMENT_ROWS, sent, rows);
        recorder.whenDone(LatencyRecorder.PLACEMENT_EVENT, sent, event);
        assertThat(recorder.snapshot().get(LatencyRecorder.PLACEMENT_ROWS).getTotalCount()).isZero();
        rows.complete(null);
        event.completeExceptionally(new IllegalStateException("not acknowledged"));

        Histogram durable = recorder.snapshot().get(LatencyRecorder.PLACEMENT_ROWS);
        assertThat(durable.getTotalCount()).isEqualTo(1);
        assertThat(durable.getMaxValue()).isGreaterThanOrEqualTo(40_000L);
        assertThat(recorder.snapshot().get(LatencyRecorder.PLACEMENT_EVENT).getTotalCount()).isZero();
        assertThat(recorder.snapshot()).containsKeys(LatencyRecorder.ORDER_REQUEST, LatencyRecorder.OWNER_PLACEMENT,
                LatencyRecorder.MARKET_FILL_ROW);
    }

    @Test
    void aSnapshotIsACopyThatLaterSamplesLeaveAlone() {
        LatencyRecorder recorder = new LatencyRecorder();
        recorder.filled(Duration.ofMillis(5), Duration.ofMillis(1));
        Histogram before = recorder.snapshot().get(LatencyRecorder.TICK_TO_FILL);

        recorder.filled(Duration.ofMillis(7), Duration.ofMillis(1));

        assertThat(before.getTotalCount()).isEqualTo(1);
        assertThat(recorder.snapshot().get(LatencyRecorder.TICK_TO_FILL).getTotalCount()).isEqualTo(2);
    }

    @Test
    void aTickStampedAheadOfThisClockCountsAsZeroAndAnEndlessFillAsTheCeiling() {
        LatencyRecorder recorder = new LatencyRecorder();

        recorder.filled(Duration.ofMillis(-3), Duration.ofDays(2));

        assertThat(recorder.snapshot().get(LatencyRecorder.TICK_TO_FILL).getMaxValue()).isZero();
        assertThat(recorder.snapshot().get(LatencyRecorder.RECEIPT_TO_FILL).getMaxValue())
                .isCloseTo(LatencyRecorder.HIGHEST_MICROS, within(LatencyRecorder.HIGHEST_MICROS / 1000));
    }

    @Test
    void theEncodingDecodesToTheSameHistogram() throws Exception {
        LatencyRecorder recorder = new LatencyRecorder();
        for (int i = 0; i < 500; i++) {
            recorder.filled(Duration.ofNanos(123_456L * (i + 1)), Duration.ZERO);
        }
        Histogram original = recorder.snapshot().get(LatencyRecorder.TICK_TO_FILL);

        Histogram decoded = Histogram.decodeFromCompressedByteBuffer(
                ByteBuffer.wrap(Base64.getDecoder().decode(LatencyRecorder.encode(original))), 0);

        assertThat(decoded).isEqualTo(original);
    }
}
