package org.brokerapp.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyRecorderTests {

    private static final Instant T = Instant.parse("2026-11-28T09:00:00Z");

    /** A fill {@code tickToFill} after its tick's event time and {@code receiptToFill} after its receipt, decided halfway. */
    private static FillTimes fill(Duration tickToFill, Duration receiptToFill) {
        long durable = receiptToFill.toNanos();
        return new FillTimes(T, T.plus(tickToFill.minus(receiptToFill)), 0, durable / 2, durable);
    }

    @Test
    void aFillsThreeLegsAreRecordedAndAddUpToItsTickToFill() {
        LatencyRecorder recorder = new LatencyRecorder();
        FillTimes fill = new FillTimes(T, T.plusMillis(3), 1_000_000, 1_400_000, 6_400_000);

        recorder.filled(fill);

        assertThat(fill.tickToFill()).isEqualTo(Duration.ofMillis(3).plus(Duration.ofNanos(5_400_000)));
        assertThat(fill.tickToReceipt().plus(fill.receiptToDecision()).plus(fill.decisionToFill())).isEqualTo(fill.tickToFill());
        var histograms = recorder.snapshot();
        assertThat(histograms.get(LatencyRecorder.TICK_TO_RECEIPT).getMaxValue()).isCloseTo(3_000L, within(3L));
        assertThat(histograms.get(LatencyRecorder.RECEIPT_TO_DECISION).getMaxValue()).isCloseTo(400L, within(1L));
        assertThat(histograms.get(LatencyRecorder.DECISION_TO_FILL).getMaxValue()).isCloseTo(5_000L, within(5L));
        assertThat(histograms.get(LatencyRecorder.RECEIPT_TO_FILL).getMaxValue()).isCloseTo(5_400L, within(6L));
        assertThat(histograms.get(LatencyRecorder.TICK_TO_FILL).getMaxValue()).isCloseTo(8_400L, within(9L));
    }

    @Test
    void percentilesAreWithinATenthOfAPercentOfTheSamples() {
        LatencyRecorder recorder = new LatencyRecorder();
        // 1..1000 ms: the true p50 is 500 ms, p99 990 ms, max 1000 ms
        for (int ms = 1; ms <= 1000; ms++) {
            recorder.filled(fill(Duration.ofMillis(ms), Duration.ofMillis(ms / 2)));
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
        recorder.filled(fill(Duration.ofMillis(5), Duration.ofMillis(1)));
        Histogram before = recorder.snapshot().get(LatencyRecorder.TICK_TO_FILL);

        recorder.filled(fill(Duration.ofMillis(7), Duration.ofMillis(1)));

        assertThat(before.getTotalCount()).isEqualTo(1);
        assertThat(recorder.snapshot().get(LatencyRecorder.TICK_TO_FILL).getTotalCount()).isEqualTo(2);
    }

    @Test
    void aTickStampedAheadOfThisClockCountsAsZeroAndAnEndlessFillAsTheCeiling() {
        LatencyRecorder recorder = new LatencyRecorder();

        recorder.filled(fill(Duration.ofMillis(-3), Duration.ofDays(2)));

        assertThat(recorder.snapshot().get(LatencyRecorder.TICK_TO_FILL).getMaxValue()).isZero();
        assertThat(recorder.snapshot().get(LatencyRecorder.RECEIPT_TO_FILL).getMaxValue())
                .isCloseTo(LatencyRecorder.HIGHEST_MICROS, within(LatencyRecorder.HIGHEST_MICROS / 1000));
    }

    @Test
    void theEncodingDecodesToTheSameHistogram() throws Exception {
        LatencyRecorder recorder = new LatencyRecorder();
        for (int i = 0; i < 500; i++) {
            recorder.filled(fill(Duration.ofNanos(123_456L * (i + 1)), Duration.ZERO));
        }
        Histogram original = recorder.snapshot().get(LatencyRecorder.TICK_TO_FILL);

        Histogram decoded = Histogram.decodeFromCompressedByteBuffer(
                ByteBuffer.wrap(Base64.getDecoder().decode(LatencyRecorder.encode(original))), 0);

        assertThat(decoded).isEqualTo(original);
    }
}
