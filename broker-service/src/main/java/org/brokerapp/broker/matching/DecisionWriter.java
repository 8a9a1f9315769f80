package org.brokerapp.broker.matching;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import org.brokerapp.api.OrderType;
import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.book.RestingOrder;
import org.brokerapp.broker.core.DecisionFence;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.core.PriceUnits;
import org.brokerapp.broker.deciding.SymbolFence;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventPublisher;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.metrics.FillTimes;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.Tick;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Writes the matcher's decisions, fills, cancels and expiries, to the ledger. The matcher holding a symbol
 * is the only one deciding its orders' fate, so a decision needs no condition: it is one plain
 * LOCAL_QUORUM write (one replica round trip, where a Paxos condition takes four), then the order's
 * open_orders row goes. A decision is repeated after an error for as long as this instance holds
 * the symbol under the same fence (the write's timestamp is fixed by the order and the fence, so a
 * repeat changes nothing), and abandoned when it stops holding it: the order is then still OPEN
 * for the next holder.
 *
 * <p>An order the matcher took over from open_orders (a start or a rebalance) may have been decided
 * by its previous holder, which can crash between the ledger write and the open_orders delete: the
 * first decision on such an order reads the ledger before writing. Each write asks the matcher's
 * {@link SymbolFence} first: nothing is written unless this instance may still decide on the symbol.
 *
 * <p><b>Fencing by epoch.</b> The fence check and the write are not atomic: a holder paused between
 * them can write after its lease lapsed and the next holder decided. So each write carries its
 * {@link DecisionFence}, and the larger fence's decision stands in the ledger whatever the order of
 * arrival ({@code account.CustomerLedger}); and a decision is reported only if the fence still holds
 * once its write is acknowledged ({@link Outcome.Fenced} otherwise), so what is reported is what
 * stands.
 *
 * <p>At most {@code maxFillsInFlight} decisions are in flight; beyond that the matcher (on whichever
 * thread is matching) waits: backpressure, not an unbounded queue. {@link #awaitIdle} lets a
 * revocation wait until the decisions on the symbols it gives away are written, before their next
 * holder rebuilds them.
 */
@Component
class DecisionWriter {

    private static final Logger log = LoggerFactory.getLogger(DecisionWriter.class);
    private static final long RETRY_DELAY_MILLIS = 200;

    private final CustomerLedger ledger;
    private final OpenOrders openOrders;
    private final BrokerMetrics metrics;
    private final String region;
    private final Semaphore inFlight;
    private final OrderEventPublisher events;
    private final SymbolUniverse universe;
    private final Map<String, Integer> inFlightBySymbol = new HashMap<>();

    public DecisionWriter(CustomerLedger ledger, OpenOrders openOrders, BrokerMetrics metrics, BrokerProperties properties,
                          OrderEventPublisher events, SymbolUniverse universe) {
        this.ledger = ledger;
        this.events = events;
        this.universe = universe;
        this.openOrders = openOrders;
        this.metrics = metrics;
        this.region = properties.region();
        this.inFlight = new Semaphore(properties.matching().maxFillsInFlight());
    }

    /**
     * Fills {@code order} at the tick's price; {@code verify} reads the ledger first (see the class comment). {@code fence}
     * answers the fence this instance decides the symbol under now (empty: it does not).
     */
    CompletableFuture<Outcome> fill(RestingOrder order, Tick tick, long receivedNanos, boolean verify, Supplier<Optional<DecisionFence>> fence)
            throws InterruptedException {
        long decidedNanos = System.nanoTime();
        Instant at = Instant.now();
        Instant received = at.minusNanos(decidedNanos - receivedNanos);
        Function<Instant, OrderEvent> durable = durableAt -> {
            metrics.filled(new FillTimes(tick.eventTime(), received, receivedNanos, decidedNanos, System.nanoTime()));
            return OrderEvent.filled(decided(order, OrderStatus.FILLED, tick.price(), at), tick.eventTime(), received, durableAt, region);
        };
        return decide(order.symbol(), order.customerId(), order.orderId(), Optional.of(order.placedAt()), verify, fence,
                d -> ledger.fill(order.customerId(), order.orderId(), order.placedAt(), tick.price(), at, region, d.fence), durable)
                .whenComplete((outcome, error) -> {
                    if (outcome == null) {
                        metrics.fillFailed();
                        return;
                    }
                    if (outcome instanceof Outcome.AlreadyClosed) {
                        metrics.fillLostRace();
                    } else if (outcome instanceof Outcome.NotHeld || outcome instanceof Outcome.Fenced) {
                        metrics.fillAbandoned();
                    } else if (outcome instanceof Outcome.NotVisible) {
                        // orders enter the index only once their ledger row is visible here; its open_orders row stays for the next rebuild
                        metrics.fillFailed();
                        log.warn("order {} triggered but its ledger row is not visible in this region", order.orderId());
                    }
                });
    }

    /**
     * Cancels an order; {@code verify} reads the ledger first: always, unless the order was in the matcher's index as placed
     * (which knows when it was placed; the ledger read tells the others).
     */
    CompletableFuture<Outcome> cancel(String symbol, String customerId, UUID orderId, Optional<Instant> placedAt, boolean verify,
                                      Supplier<Optional<DecisionFence>> fence) throws InterruptedException {
        Instant at = Instant.now();
        Order cancelled = closed(symbol, customerId, orderId, OrderStatus.CANCELLED, at);
        return decide(symbol, customerId, orderId, placedAt, verify, fence,
                d -> ledger.cancel(customerId, orderId, d.placedAt.orElseThrow(), at, d.fence),
                durableAt -> OrderEvent.cancelled(cancelled, durableAt, region));
    }

    /** Expires a DAY or GTD order at its time; as a cancel, with EXPIRED for CANCELLED. */
    CompletableFuture<Outcome> expire(RestingOrder order, boolean verify, Supplier<Optional<DecisionFence>> fence) throws InterruptedException {
        Instant at = Instant.now();
        Order expired = closed(order.symbol(), order.customerId(), order.orderId(), OrderStatus.EXPIRED, at);
        return decide(order.symbol(), order.customerId(), order.orderId(), Optional.of(order.placedAt()), verify, fence,
                d -> ledger.expire(order.customerId(), order.orderId(), d.placedAt.orElseThrow(), at, d.fence),
                durableAt -> OrderEvent.expired(expired, durableAt, region));
    }

    /** An order closed unfilled, as its event tells it (the PLACED event has the rest). */
    private Order closed(String symbol, String customerId, UUID orderId, OrderStatus as, Instant at) {
        return new Order(orderId, customerId, null, symbol, universe.get(symbol).exchange(), null, null, 0, null, null, null, as, null, null, null,
                null, null, at);
    }

    /**
     * The order as decided here, from what the matcher knows of it (the event's consumers need no more): as placed, with its
     * limit and, until it triggered, its stop.
     */
    private Order decided(RestingOrder o, OrderStatus status, BigDecimal fillPrice, Instant at) {
        BigDecimal trigger = PriceUnits.toDecimal(o.triggerPrice());
        BigDecimal limit = o.placedAs() == OrderType.STOP_LIMIT ? PriceUnits.toDecimal(o.limitPrice()) : o.placedAs() == OrderType.LIMIT ? trigger : null;
        BigDecimal stop = o.type() == OrderType.STOP ? trigger : null;
        return new Order(o.orderId(), o.customerId(), null, o.symbol(), universe.get(o.symbol()).exchange(), o.side(), o.placedAs(), o.quantity(),
                limit, stop, null, status, null, null, fillPrice, at, region, null);
    }

    /**
     * A symbol's next holder rebuilds its orders from Cassandra: before it may, the decisions taken
     * here must be written (or abandoned, which leaves the order OPEN), or it would decide them again.
     * Waits until the matcher {@code dropped} the symbols, then until their decisions are written.
     */
    void awaitDecisionsOn(List<String> lost, CountDownLatch dropped) {
        try {
            boolean idle = dropped.await(30, TimeUnit.SECONDS) && awaitIdle(lost, Duration.ofSeconds(30));
            if (!idle) {
                log.warn("decisions on {} symbols still in flight after 30 s; their orders are checked against the ledger by the next holder", lost.size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until no decision on {@code symbols} is in flight, or {@code max} passed (false then). */
    synchronized boolean awaitIdle(Collection<String> symbols, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (symbols.stream().anyMatch(inFlightBySymbol::containsKey)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    private CompletableFuture<Outcome> decide(String symbol, String customerId, UUID orderId, Optional<Instant> placedAt, boolean verify,
                                              Supplier<Optional<DecisionFence>> fence, Function<Decision, CompletionStage<Void>> write,
                                              Function<Instant, OrderEvent> durable) throws InterruptedException {
        Optional<DecisionFence> under = fence.get();
        if (under.isEmpty()) {
            return CompletableFuture.completedFuture(new Outcome.NotHeld());
        }
        inFlight.acquire();
        begin(symbol);
        Decision decision = new Decision(symbol, customerId, orderId, placedAt, under.get(), fence, write);
        return attempt(decision, verify)
                .thenApply(outcome -> outcome instanceof Outcome.Written && !decision.stillHeld()
                        // written, but the fence moved on meanwhile: the next holder reads the ledger and reports what stands
                        ? new Outcome.Fenced()
                        : outcome)
                .thenCompose(outcome -> {
                    OrderEvent event = null;
                    if (outcome instanceof Outcome.Written) {
                        event = durable.apply(Instant.now());
                    } else if (outcome instanceof Outcome.AlreadyClosed closed && closed.ledgerOrder() != null) {
                        // decided by a previous holder, which may have crashed before reporting it
                        event = OrderEvent.outcome(closed.ledgerOrder(), region);
                    }
                    if (event == null) {
                        return CompletableFuture.completedFuture(outcome);
                    }
                    // the order leaves open_orders only once its decision is durable and reported, or a crash here would lose either
                    return report(event, 1).thenCompose(reported -> reported
                            ? removeOpenOrder(decision, 1).thenApply(removed -> outcome)
                            : CompletableFuture.completedFuture(outcome));
                })
                .whenComplete((outcome, error) -> {
                    end(symbol);
                    inFlight.release();
                    if (error != null) {
                        log.error("decision on order {} failed", orderId, error);
                    }
                });
    }

    /**
     * One decision being written, under the fence it was taken under; when its order was placed is
     * learnt from the ledger read if the matcher did not know.
     */
    private static final class Decision {
        final String symbol;
        final String customerId;
        final UUID orderId;
        final DecisionFence fence;
        final Supplier<Optional<DecisionFence>> current;
        final Function<Decision, CompletionStage<Void>> write;
        volatile Optional<Instant> placedAt;

        Decision(String symbol, String customerId, UUID orderId, Optional<Instant> placedAt, DecisionFence fence,
                 Supplier<Optional<DecisionFence>> current, Function<Decision, CompletionStage<Void>> write) {
            this.symbol = symbol;
            this.customerId = customerId;
            this.orderId = orderId;
            this.placedAt = placedAt;
            this.fence = fence;
            this.current = current;
            this.write = write;
        }

        /** This instance still decides on the symbol, under the same fence (not lost and taken again meanwhile). */
        boolean stillHeld() {
            return current.get().filter(fence::equals).isPresent();
        }
    }

    /** Check (if asked) and write; after an error, the same again a moment later, while the symbol is held here. */
    private CompletableFuture<Outcome> attempt(Decision d, boolean verify) {
        if (!d.stillHeld()) {
            return CompletableFuture.completedFuture(new Outcome.NotHeld());
        }
        CompletionStage<Optional<Order>> current = verify
                ? ledger.readOrderAsync(d.customerId, d.orderId)
                : CompletableFuture.completedFuture(Optional.empty());
        return current.thenCompose(order -> {
                    if (d.placedAt.isEmpty()) {
                        d.placedAt = order.map(Order::placedAt);
                    }
                    if (verify && order.isEmpty()) {
                        return CompletableFuture.<Outcome>completedFuture(new Outcome.NotVisible());
                    }
                    if (order.isPresent() && !order.get().isOpen()) {
                        return CompletableFuture.<Outcome>completedFuture(new Outcome.AlreadyClosed(order.get().status(), order.get()));
                    }
                    return d.write.apply(d).thenApply(written -> (Outcome) new Outcome.Written());
                })
                .toCompletableFuture()
                .exceptionallyCompose(error -> {
                    metrics.decisionRetried();
                    log.debug("decision on order {} failed, trying again", d.orderId, error);
                    return later(() -> attempt(d, verify));
                });
    }

    /** Publishes the decision's event; a few tries, then the open_orders row stays and the next rebuild reports it again. */
    private CompletableFuture<Boolean> report(OrderEvent event, int attempt) {
        return events.publish(event).thenApply(sent -> true).exceptionallyCompose(error -> {
            if (attempt >= 5) {
                log.warn("decision on order {} not reported ({}); its open_orders row stays for the next rebuild", event.orderId(), error.getMessage());
                return CompletableFuture.completedFuture(false);
            }
            return later(() -> report(event, attempt + 1));
        });
    }

    /** A row left behind is harmless (a rebuild checks the ledger before deciding again), so a few tries suffice. */
    private CompletableFuture<Void> removeOpenOrder(Decision d, int attempt) {
        return openOrders.deleteAsync(d.symbol, d.orderId, d.placedAt, Instant.now()).toCompletableFuture().<Void>thenApply(rs -> null)
                .exceptionallyCompose(error -> {
                    if (attempt >= 5) {
                        log.warn("open_orders row of order {} not removed; a rebuild will find the order closed", d.orderId, error);
                        return CompletableFuture.completedFuture(null);
                    }
                    return later(() -> removeOpenOrder(d, attempt + 1));
                });
    }

    private static <T> CompletableFuture<T> later(Supplier<CompletableFuture<T>> step) {
        return CompletableFuture.supplyAsync(step, CompletableFuture.delayedExecutor(RETRY_DELAY_MILLIS, TimeUnit.MILLISECONDS))
                .thenCompose(Function.identity());
    }

    synchronized void begin(String symbol) {
        inFlightBySymbol.merge(symbol, 1, Integer::sum);
    }

    synchronized void end(String symbol) {
        inFlightBySymbol.computeIfPresent(symbol, (s, n) -> n == 1 ? null : n - 1);
        notifyAll();
    }
}
