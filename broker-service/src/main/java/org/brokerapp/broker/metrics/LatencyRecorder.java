package org.brokerapp.broker.metrics;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.springframework.stereotype.Component;

/**
 * The fill latencies again, exactly, and where a placement's time goes: every sample in an
 * HdrHistogram with 3 significant digits (0.1 % resolution), in microseconds, cumulative since
 * start. The Prometheus timers beside them ({@link BrokerMetrics}) aggregate across instances but
 * only to a bucket about 10-30 % wide; a load test that must report percentiles within 5 % reads
 * {@link #snapshot()} (at {@code /actuator/latency}) at the start and the end of its window and
 * subtracts.
 */
@Component
class LatencyRecorder {

    /** Tick event time to fill durable. */
    public static final String TICK_TO_FILL = "tick-to-fill";
    /** Broker receipt of the tick to fill durable. */
    public static final String RECEIPT_TO_FILL = "receipt-to-fill";
    /**
     * The three legs of a filled tick's way, which add up to tick-to-fill: its event time to this broker's receipt (the feed's send
     * and Kafka's delivery), receipt to the matcher's decision (the wait for the matcher's turn and the match), and the decision
     * to the fill durable (the ledger write).
     */
    public static final String TICK_TO_RECEIPT = "tick-to-receipt";
    public static final String RECEIPT_TO_DECISION = "receipt-to-decision";
    public static final String DECISION_TO_FILL = "decision-to-fill";
    /** A LIMIT or STOP {@code POST /api/orders} from the first filter to its answer, at the broker the client sent it to. */
    public static final String ORDER_REQUEST = "order-request";
    /** The same request from its first filter until the controller has its body, parsed and validated: authentication, limits, JSON. */
    public static final String ORDER_REQUEST_TO_CONTROLLER = "order-request-to-controller";
    /** A MARKET {@code POST /api/orders} answered 503 because its home region could not be reached, first filter to answer. */
    public static final String MARKET_REFUSED_REQUEST = "market-refused-request";
    /** A LIMIT or STOP placement at the customer's owner: from its reservation until its two rows and its event are durable. */
    public static final String OWNER_PLACEMENT = "owner-placement";
    /** Each of those two steps (the rows, one batch; the event), from the moment the owner sent it to its acknowledgement. */
    public static final String PLACEMENT_ROWS = "owner-placement-rows";
    public static final String PLACEMENT_EVENT = "owner-placement-event";
    /** A MARKET {@code POST /api/orders} executed in another region than the one it was sent to, at the broker the client sent it to, first filter to answer. */
    public static final String MARKET_ROUTED_REQUEST = "market-routed-request";
    /** Such an order's call from the customer's owner to the region executing it: from signing the call to reading its answer. */
    public static final String MARKET_ROUTED_CALL = "market-routed-call";
    /** That call at the executing region's broker ({@code POST /internal/market-orders}), first filter to answer. */
    public static final String MARKET_EXECUTION_REQUEST = "market-execution-request";
    /** A MARKET order's {@code FILLED} row where it executes, sent to acknowledged: the one write its answer waits for. */
    public static final String MARKET_FILL_ROW = "market-fill-row";
    private static final List<String> MEASURES = List.of(TICK_TO_FILL, RECEIPT_TO_FILL, TICK_TO_RECEIPT, RECEIPT_TO_DECISION,
            DECISION_TO_FILL, ORDER_REQUEST, ORDER_REQUEST_TO_CONTROLLER, MARKET_REFUSED_REQUEST,
            OWNER_PLACEMENT, PLACEMENT_ROWS, PLACEMENT_EVENT,
            MARKET_ROUTED_REQUEST, MARKET_ROUTED_CALL, MARKET_EXECUTION_REQUEST, MARKET_FILL_ROW);
    public static final int SIGNIFICANT_DIGITS = 3;
    /** Longer than any fill can take; a longer sample is clamped to it rather than lost. */
    static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);

    private final Map<String, Histogram> histograms = new LinkedHashMap<>();

    public LatencyRecorder() {
        MEASURES.forEach(measure -> histograms.put(measure, new ConcurrentHistogram(HIGHEST_MICROS, SIGNIFICANT_DIGITS)));
    }

    public void filled(FillTimes fill) {
        record(TICK_TO_FILL, fill.tickToFill());
        record(RECEIPT_TO_FILL, fill.receiptToFill());
        record(TICK_TO_RECEIPT, fill.tickToReceipt());
        record(RECEIPT_TO_DECISION, fill.receiptToDecision());
        record(DECISION_TO_FILL, fill.decisionToFill());
    }

    /** One sample of {@code measure}, one of this class's names. */
    public void record(String measure, Duration took) {
        long micros = Math.min(HIGHEST_MICROS, Math.max(0, took.toNanos() / 1_000));
        histograms.get(measure).recordValue(micros);
    }

    /** {@code future}, which records the time from {@code startedNanos} ({@link System#nanoTime()}) to its completion in {@code measure}, unless it fails. */
    public <T> CompletableFuture<T> whenDone(String measure, long startedNanos, CompletableFuture<T> future) {
        future.whenComplete((ignored, failed) -> {
            if (failed == null) {
                record(measure, Duration.ofNanos(System.nanoTime() - startedNanos));
            }
        });
        return future;
    }

    /** A copy of each histogram, by measure name; later samples do not change it. */
    public Map<String, Histogram> snapshot() {
        Map<String, Histogram> copies = new LinkedHashMap<>();
        histograms.forEach((name, h) -> copies.put(name, h.copy()));
        return copies;
    }

    /** A histogram as HdrHistogram's compressed encoding in Base64: what {@code Histogram.decodeFromCompressedByteBuffer} reads. */
    public static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }
}
