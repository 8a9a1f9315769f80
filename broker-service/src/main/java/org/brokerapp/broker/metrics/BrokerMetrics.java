package org.brokerapp.broker.metrics;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.brokerapp.api.OrderType;
import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.stereotype.Component;

/**
 * The broker's own meters, all tagged with its region, all published at /actuator/prometheus.
 * Latency timers carry percentile histograms so p99 can be aggregated across instances.
 */
@Component
public class BrokerMetrics {

    private final MeterRegistry registry;
    private final String region;
    private final Timer tickToFill;
    private final Timer receiptToFill;
    private final Timer placement;
    private final LatencyRecorder exact;

    public BrokerMetrics(MeterRegistry registry, BrokerProperties properties, LatencyRecorder exact) {
        this.registry = registry;
        this.exact = exact;
        this.region = properties.region();
        this.tickToFill = timer("broker.fill.tick.to.fill", "tick event time to fill durable (ledger write acknowledged at LOCAL_QUORUM)");
        this.receiptToFill = timer("broker.fill.receipt.to.fill", "broker receipt of the tick to fill durable");
        this.placement = timer("broker.order.placement", "order placement request to ledger write acknowledged");
    }

    /** The registry, for binders of clients whose meters are not the broker's own (the Kafka clients'). */
    public MeterRegistry registry() {
        return registry;
    }

    public void filled(FillTimes fill) {
        Duration sinceTickEvent = fill.tickToFill();
        tickToFill.record(sinceTickEvent.isNegative() ? Duration.ZERO : sinceTickEvent);
        receiptToFill.record(fill.receiptToFill());
        exact.filled(fill); // the same two samples and their legs, exactly (3 significant digits): /actuator/latency
        counter("broker.fills", "outcome", "filled").increment();
    }

    /** A triggered order taken over from open_orders that its previous holder had closed already (found by the ledger check). */
    public void fillLostRace() {
        counter("broker.fills", "outcome", "already.closed").increment();
    }

    /** A triggered order not filled because this instance stopped holding its symbol (a rebalance, or its exchange moved) meanwhile. */
    public void fillAbandoned() {
        counter("broker.fills", "outcome", "exchange.moved").increment();
    }

    /** A decision (fill or cancel) whose ledger check or write failed and is tried again. */
    public void decisionRetried() {
        counter("broker.decisions.retried", "kind", "any").increment();
    }

    /**
     * A fill the customer's owner refused to book: not a fill of its order ({@code source}: {@code event}, a decider's
     * report; {@code answer}, a routed MARKET order's). Alerted on: it is a forgery, or a bug between two brokers.
     */
    public void refusedFill(String source) {
        counter("broker.fills.refused", "source", source).increment();
    }

    /** An order event refused at intake: sent by a region that may not send it ({@code rule} says which check). Alerted on. */
    public void refusedEvent(String rule) {
        counter("broker.events.refused", "rule", rule).increment();
    }

    public void fillFailed() {
        counter("broker.fills", "outcome", "error").increment();
    }

    public void placed(OrderType type, Duration took) {
        placement.record(took);
        if (type != OrderType.MARKET) {
            exact.record(LatencyRecorder.OWNER_PLACEMENT, took);
        }
        counter("broker.orders", "type", type.name()).increment();
    }

    /** A LIMIT or STOP placement's durable step (its two rows, its event): timed from {@code startedNanos} until it completes. */
    public <T> CompletableFuture<T> placementStep(PlacementStep step, long startedNanos, CompletableFuture<T> durable) {
        return exact.whenDone(step.measure, startedNanos, durable);
    }

    /** The two things a LIMIT or STOP placement waits for. */
    public enum PlacementStep {
        ROWS(LatencyRecorder.PLACEMENT_ROWS), EVENT(LatencyRecorder.PLACEMENT_EVENT);

        private final String measure;

        PlacementStep(String measure) {
            this.measure = measure;
        }
    }

    /** A whole LIMIT or STOP {@code POST /api/orders} as this broker served it. */
    public void orderRequest(Duration took) {
        exact.record(LatencyRecorder.ORDER_REQUEST, took);
    }

    /** A MARKET {@code POST /api/orders} this broker answered 503 (its home region unreachable), first filter to answer. */
    public void marketOrderRefused(Duration took) {
        exact.record(LatencyRecorder.MARKET_REFUSED_REQUEST, took);
    }

    /** A MARKET {@code POST /api/orders} executed in another region, first filter to answer at the broker the client sent it to. */
    public void marketRoutedRequest(Duration took) {
        exact.record(LatencyRecorder.MARKET_ROUTED_REQUEST, took);
    }

    /** The owner's call to the region executing a MARKET order, from signing it to its answer. */
    public void marketRoutedCall(Duration took) {
        exact.record(LatencyRecorder.MARKET_ROUTED_CALL, took);
    }

    /** A routed MARKET order at the broker executing it, first filter to answer. */
    public void marketExecutionRequest(Duration took) {
        exact.record(LatencyRecorder.MARKET_EXECUTION_REQUEST, took);
    }

    /** {@code write}, a MARKET order's {@code FILLED} row, timed from {@code startedNanos} until acknowledged. */
    public <T> CompletableFuture<T> marketFillRow(long startedNanos, CompletableFuture<T> write) {
        return exact.whenDone(LatencyRecorder.MARKET_FILL_ROW, startedNanos, write);
    }

    /** The same request from its first filter to the controller. */
    public void orderRequestToController(Duration took) {
        exact.record(LatencyRecorder.ORDER_REQUEST_TO_CONTROLLER, took);
    }

    /**
     * A market order's answer, as the placing broker saw it: executed here ({@code local}) or in
     * {@code home} after one WAN round trip ({@code cross-region}); outcome {@code filled} or the refusal.
     */
    public void marketOrder(String home, boolean local, String outcome, Duration took) {
        Timer.builder("broker.market.orders").description("market order request to answer, local or routed to the home region")
                .tag("region", region).tag("home", home).tag("route", local ? "local" : "cross-region").tag("outcome", outcome)
                .publishPercentileHistogram().publishPercentiles(0.5, 0.99)
                .minimumExpectedValue(Duration.ofNanos(100_000)).maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry).record(took);
    }

    public void rejected(String reason) {
        counter("broker.rejections", "reason", reason).increment();
    }

    /** A tick the guard refused, by kind (wrong.exchange, band, ...): see ticker.TickGuard. */
    public void tickRefused(String kind) {
        counter("broker.ticks.refused", "kind", kind).increment();
    }

    public void tick(String result) {
        counter("broker.ticks", "result", result).increment();
    }

    private Timer timer(String name, String description) {
        return Timer.builder(name).description(description).tag("region", region)
                .publishPercentileHistogram().publishPercentiles(0.5, 0.99, 0.999)
                .minimumExpectedValue(Duration.ofNanos(100_000)).maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
    }

    private Counter counter(String name, String tag, String value) {
        return Counter.builder(name).tag("region", region).tag(tag, value).register(registry);
    }
}
