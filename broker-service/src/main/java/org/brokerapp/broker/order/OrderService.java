package org.brokerapp.broker.order;

import static org.brokerapp.broker.metrics.BrokerMetrics.PlacementStep.EVENT;
import static org.brokerapp.broker.metrics.BrokerMetrics.PlacementStep.ROWS;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import com.datastax.oss.driver.api.core.DriverException;
import org.brokerapp.broker.account.Accounts;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.account.Holdings;
import org.brokerapp.broker.account.LedgerPage;
import org.brokerapp.broker.account.LedgerSnapshot;
import org.brokerapp.broker.account.Pending;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderIds;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.core.OrderType;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.Placement;
import org.brokerapp.broker.core.Side;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventPublisher;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.market.LastPrices;
import org.brokerapp.broker.matching.MatchingService;
import org.brokerapp.broker.matching.Outcome;
import org.brokerapp.broker.matching.RestingOrders;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.routing.OrderLookup;
import org.brokerapp.broker.routing.OrderRouter;
import org.brokerapp.broker.routing.RoutedMarketOrder;
import org.brokerapp.broker.routing.RoutedPlacement;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.ticker.SymbolHolders;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Placing, cancelling and reading orders. Every placement is decided by the one broker instance
 * owning the customer's account, in the customer's home region ({@link Accounts}): placed anywhere
 * else, it is forwarded there (one WAN round trip, or one hop inside the region). The owner checks
 * and reserves the balance in memory, writes the order with one plain LOCAL_QUORUM write (a LIMIT or
 * STOP order's with its open_orders row, in one batch), publishes the order event and answers; the
 * relay carries the event to the region matching the symbol. A MARKET order executes at once in the
 * region matching its exchange: at the owner, or sent there by the owner, whose reservation bounds
 * the price it may execute at.
 *
 * <p>A LIMIT or STOP placement starts its two rows (one batch, {@link RestingOrderRows}) and its
 * event together and answers 201 only once both are durable; if either fails or is late, 503 and
 * the reservation stays (a retry writes the same cells and publishes the same event). So an event can be seen before its
 * rows are durable, and, should the writes fail, without them. Every consumer tolerates that:
 * the matcher's fill and cancel write cells the placement never writes (a row with only those is
 * no order to any reader, {@code CustomerLedger.isComplete}); the delete of the open_orders row
 * after a decision wins over the insert by timestamp, not by arrival, so a late insert stays deleted; an
 * event replayed to a region where the row is not visible rests to be checked against the ledger
 * before its first decision; and the owner credits what a fill brings only once the order's write
 * is durable ({@code Account.filled}), so nothing bought by an order that never landed is spent.
 */
@Service
class OrderService {

    private static final Logger log = LoggerFactory.getLogger(OrderService.class);

    private static final Duration WRITE_WAIT = Duration.ofSeconds(6);
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(5);

    /** What a placement step decided under the account's monitor: the order, whether to write it, whether it is new. */
    private record Reserved(Order order, boolean write, boolean created, boolean seenBefore) {

        Reserved(Order order, boolean write, boolean created) {
            this(order, write, created, false);
        }
    }

    private final CustomerLedger ledger;
    private final RestingOrderRows restingRows;
    private final Accounts accounts;
    private final CustomerHomes homes;
    private final OrderEventPublisher events;
    private final MatchingService matcher;
    private final SymbolUniverse symbols;
    private final ExchangeOwnership exchanges;
    private final BrokerMetrics metrics;
    private final String region;
    private final BigDecimal buyStopCollar;
    private final LastPrices lastPrices;
    private final OrderRouter router;
    private final Duration maxPriceAge;
    private final SymbolHolders holders;
    private final MarketExecutions executions = new MarketExecutions(System::nanoTime);

    OrderService(CustomerLedger ledger, RestingOrderRows restingRows, Accounts accounts, CustomerHomes homes, OrderEventPublisher events,
                        MatchingService matcher, SymbolUniverse symbols, ExchangeOwnership exchanges, BrokerMetrics metrics,
                        BrokerProperties properties, LastPrices lastPrices, OrderRouter router, SymbolHolders holders) {
        this.ledger = ledger;
        this.restingRows = restingRows;
        this.accounts = accounts;
        this.homes = homes;
        this.events = events;
        this.matcher = matcher;
        this.symbols = symbols;
        this.exchanges = exchanges;
        this.metrics = metrics;
        this.region = properties.region();
        this.buyStopCollar = properties.matching().buyStopCollar();
        this.lastPrices = lastPrices;
        this.router = router;
        this.holders = holders;
        this.maxPriceAge = properties.market().maxPriceAge();
    }

    /** Places an order a customer sent to this broker. */
    public Placement place(PlaceOrder command) {
        long started = System.nanoTime();
        boolean market = command.type() == OrderType.MARKET;
        String owner = market ? exchanges.ownerOf(symbols.get(command.symbol()).exchange()).region() : region;
        try {
            Placement placement = placeForwarded(command, region, false);
            if (market) {
                metrics.marketOrder(owner, owner.equals(region), "filled", Duration.ofNanos(System.nanoTime() - started));
            }
            return placement;
        } catch (OrderProblem refused) {
            if (market) {
                metrics.marketOrder(owner, owner.equals(region), refused.title().toLowerCase().replace(' ', '.'), Duration.ofNanos(System.nanoTime() - started));
            }
            throw refused;
        }
    }

    /**
     * Places an order for a customer who sent it to {@code placedRegion}: here if this instance owns
     * their account, else forwarded to the instance that does ({@code passedOn}: it was already, once).
     */
    public Placement placeForwarded(PlaceOrder command, String placedRegion, boolean passedOn) {
        String home = homes.homeOf(command.customerId())
                .orElseThrow(() -> new OrderProblem.Invalid("no account for customer " + command.customerId()));
        if (!home.equals(region)) {
            if (!placedRegion.equals(region)) {
                throw new OrderProblem.NotOwner(command.customerId(), command.customerId() + " is homed in " + home + ", not here in " + region);
            }
            return router.forward(home, routed(command, placedRegion));
        }
        if (!accounts.owns(command.customerId())) {
            if (passedOn) {
                throw new OrderProblem.NotOwner(command.customerId());
            }
            String owner = accounts.ownerUrl(command.customerId()).orElseThrow(() -> new OrderProblem.NotOwner(command.customerId()));
            return router.forwardInRegion(owner, routed(command, placedRegion));
        }
        Listing listing = symbols.get(command.symbol());
        return command.type() == OrderType.MARKET ? placeMarket(command, listing, placedRegion) : placeResting(command, listing, placedRegion);
    }

    private static RoutedPlacement routed(PlaceOrder c, String placedRegion) {
        return new RoutedPlacement(c.customerId(), c.clientOrderId(), c.symbol(), c.side(), c.type(), c.quantity(), c.price(), placedRegion);
    }

    /**
     * Under the account's monitor: the order this request names and whether to write it now. A
     * retry finds its order (written again only if its outcome is unknown); a new order is reserved
     * for {@code maxCost}, or refused (422) if the customer lacks it.
     */
    private Reserved reserve(PlaceOrder command, UUID orderId, Supplier<Order> fresh, Function<Order, BigDecimal> maxCost) {
        try {
            return reserveOnce(command, orderId, fresh, maxCost);
        } catch (OrderProblem.Insufficient shortfall) {
            // fills and cancels reach the owner as events, just after their rows: the ledger may hold one that frees enough.
            // Tried again whatever the catch-up found: the event itself may have come in meanwhile, leaving it nothing to apply
            accounts.catchUp(command.customerId());
            try {
                return reserveOnce(command, orderId, fresh, maxCost);
            } catch (OrderProblem.Insufficient stillShort) {
                throw rejected(command, stillShort);
            }
        }
    }

    private OrderProblem.Insufficient rejected(PlaceOrder command, OrderProblem.Insufficient shortfall) {
        metrics.rejected(command.side() == Side.BUY ? "insufficient.cash" : "insufficient.shares");
        return shortfall;
    }

    private Reserved reserveOnce(PlaceOrder command, UUID orderId, Supplier<Order> fresh, Function<Order, BigDecimal> maxCost) {
        return accounts.withAccount(command.customerId(), account -> {
            Optional<Order> existing = account.find(orderId);
            if (existing.isPresent()) {
                Order order = sameRequestOrRefuse(existing.get(), command);
                if (!account.isUnsettled(orderId)) {
                    return new Reserved(order, false, false);
                }
                account.rewrite(orderId);
                return new Reserved(order, true, false);
            }
            Order order = fresh.get();
            // its id may have been placed before all the same: a retry of an order whose row has not reached this DC
            boolean seenBefore = account.mayHavePlaced(orderId);
            account.reserve(order, maxCost.apply(order));
            return new Reserved(order, true, true, seenBefore);
        });
    }

    /** A LIMIT or STOP order at its owner: reserve, write (ledger and open_orders rows), publish, answer. */
    private Placement placeResting(PlaceOrder command, Listing listing, String placedRegion) {
        long started = System.nanoTime();
        UUID orderId = OrderIds.of(command.customerId(), command.clientOrderId());
        Reserved reserved = reserve(command, orderId, () -> newOrder(orderId, command, listing.exchange(), placedRegion), Order::reservedCash);
        Order order = reserved.order();
        if (!reserved.write()) {
            return new Placement(order, false);
        }
        try {
            // the rows (one batch) and the event at once (rows first to the driver), answered only once both are durable: see the class comment
            long sent = System.nanoTime();
            CompletableFuture<Void> rows = metrics.placementStep(ROWS, sent, restingRows.write(order));
            CompletableFuture<Void> event = metrics.placementStep(EVENT, sent, events.publish(OrderEvent.placed(order, Instant.now(), region)));
            await(CompletableFuture.allOf(rows, event), order);
            settled(order);
        } finally {
            accounts.writeEnded(order.customerId(), order.orderId());
        }
        if (exchanges.holds(order.exchange())) {
            // matched here: straight to the matcher (the relay brings it too, and it is indexed once)
            matcher.rest(RestingOrders.of(order));
        }
        metrics.placed(order.type(), Duration.ofNanos(System.nanoTime() - started));
        return new Placement(order, reserved.created());
    }

    /**
     * A MARKET order at its owner. Matched here: executed at this region's latest price. Matched
     * elsewhere: the cash is reserved for the latest price known here plus the collar, and the
     * matching region executes it only at or below that.
     */
    private Placement placeMarket(PlaceOrder command, Listing listing, String placedRegion) {
        UUID orderId = OrderIds.of(command.customerId(), command.clientOrderId());
        boolean here = exchanges.holds(listing.exchange());
        String executor = exchanges.ownerOf(listing.exchange()).region();
        if (!here && executor.equals(region)) {
            throw new OrderProblem.RegionUnreachable(region, Duration.ofSeconds(5), listing.exchange() + " is being handed over to " + region
                    + "; market orders execute again once the previous owner has stopped");
        }
        if (!here && !knows(command.customerId(), orderId)) {
            // a new order for a region known cut off is refused before its price is read; a retry still finds its first answer
            router.requireReachable(executor, command.symbol());
        }
        BigDecimal price = recentPrice(command.symbol());
        BigDecimal perShare = here ? price : price.multiply(BigDecimal.ONE.add(buyStopCollar)).setScale(4, RoundingMode.UP);
        BigDecimal cost = command.side() == Side.BUY ? perShare.multiply(BigDecimal.valueOf(command.quantity())) : BigDecimal.ZERO;
        Reserved reserved = reserve(command, orderId, () -> new Order(orderId, command.customerId(), command.clientOrderId(), command.symbol(),
                listing.exchange(), command.side(), OrderType.MARKET, command.quantity(), null, null, BigDecimal.ZERO, OrderStatus.OPEN, placedRegion,
                Instant.now(), null, null, null, null), order -> cost);
        if (!reserved.write()) {
            return new Placement(reserved.order(), false);
        }
        Order order = reserved.order();
        try {
            Placement placement;
            if (here) {
                // an execution whose write's outcome was unknown may have landed: the ledger says, before executing again
                Optional<Order> landed = reserved.created() ? Optional.empty() : ledger.readOrder(order.customerId(), orderId);
                placement = landed.filter(o -> o.status() == OrderStatus.FILLED).map(o -> new Placement(o, false))
                        .orElseGet(() -> new Placement(execute(order, price), reserved.created()));
            } else {
                try {
                    long sent = System.nanoTime();
                    // a retry is capped by what its first attempt reserved, not by today's price: a fill above it could never be booked
                    BigDecimal maxPrice = command.side() != Side.BUY ? null
                            : reserved.created() || order.reservedCash() == null || order.reservedCash().signum() == 0 ? perShare
                            : order.reservedCash().divide(BigDecimal.valueOf(order.quantity()), 4, RoundingMode.DOWN);
                    placement = router.execute(executor, new RoutedMarketOrder(order.customerId(), order.clientOrderId(), order.symbol(),
                            order.side(), order.quantity(), placedRegion, maxPrice,
                            !reserved.created() || reserved.seenBefore()));
                    metrics.marketRoutedCall(Duration.ofNanos(System.nanoTime() - sent));
                    if (reserved.created() && !placement.created()) {
                        // executed before, by an attempt whose order has left this owner's memory: booked when it closed, not again
                        release(order);
                        return new Placement(placement.order(), false);
                    }
                } catch (OrderProblem.Relayed refused) {
                    // the matching region said no (no price, price moved): nothing executed
                    release(order);
                    throw refused;
                } catch (OrderProblem.RegionUnreachable unreachable) {
                    // nothing of a new order went out (the circuit open): nothing executed. Kept, it would hold the cash
                    // for good unless the customer retried; after an attempt that went out, a retry tells
                    if (!unreachable.sent() && reserved.created()) {
                        release(order);
                    }
                    throw unreachable;
                }
            }
            Order filled = placement.order();
            Optional<String> refusal = accounts.withAccount(order.customerId(), account -> {
                Optional<String> notThisOrder = account.filled(filled);
                if (notThisOrder.isEmpty()) {
                    account.written(orderId);
                }
                return notThisOrder;
            });
            if (refusal.isPresent()) {
                metrics.refusedFill("answer");
                log.warn("order {}: the fill {} answered is not this order's ({}); its cash stays held", orderId, executor, refusal.get());
                throw new OrderProblem.BadAnswer(executor, "the fill " + executor + " answered for order " + orderId + " is not this order's: "
                        + refusal.get() + "; its reservation stays until the ledger says what happened");
            }
            return new Placement(filled, reserved.created() || placement.created());
        } finally {
            accounts.writeEnded(order.customerId(), order.orderId());
        }
    }

    /**
     * A MARKET order sent here by its customer's owner, because this region matches its symbol: the
     * owner reserved for at most {@code maxPrice} a share (BUY). Executed at most once per order id,
     * by the one instance deciding on the symbol (the holder of its tick lease, fenced as fills are):
     * another instance passes it on ({@code passedOn}: it was already, once), so an attempt after one
     * that timed out finds the first decision where it was taken, or, once the lease has moved, its
     * write in the ledger. Any instance could execute it before, and under overload one did so twice,
     * at two prices (the broker-kill drill with two instances per region).
     *
     * <p>Refused (4xx, or 503 with Retry-After) only when nothing was executed, since the owner then
     * releases the reservation; a decision whose write did not answer is a 504, and the owner keeps it.
     */
    public Placement executeRouted(PlaceOrder command, String placedRegion, BigDecimal maxPrice, boolean retry, boolean passedOn) {
        try {
            return executeRoutedOnce(command, placedRegion, maxPrice, retry, passedOn);
        } catch (DriverException unknown) {
            if (!retry) {
                throw unknown; // nothing was decided before this attempt: a refusal is the truth
            }
            // an earlier attempt may have executed it: a database failure now says nothing about that
            throw new OrderProblem.RegionTimedOut(region, "order of " + command.customerId() + " may have executed in " + region
                    + " (the database did not answer): retry with the same clientOrderId, which never executes twice");
        }
    }

    private Placement executeRoutedOnce(PlaceOrder command, String placedRegion, BigDecimal maxPrice, boolean retry, boolean passedOn) {
        Listing listing = symbols.get(command.symbol());
        if (!exchanges.holds(listing.exchange())) {
            throw new OrderProblem.RegionUnreachable(region, Duration.ofSeconds(1), region + " does not match " + listing.exchange()
                    + " now; its owner is " + exchanges.ownerOf(listing.exchange()).region());
        }
        Optional<Placement> executed = matcher.executing(command.symbol(), () -> executeDeciding(command, listing, placedRegion, maxPrice, retry));
        if (executed.isPresent()) {
            return executed.get();
        }
        Optional<String> holder = passedOn ? Optional.empty() : holders.otherHolderOf(command.symbol());
        if (holder.isPresent()) {
            return router.executeInRegion(holder.get(), new RoutedMarketOrder(command.customerId(), command.clientOrderId(), command.symbol(),
                    command.side(), command.quantity(), placedRegion, maxPrice, retry));
        }
        String changing = command.symbol() + "'s matcher in " + region + " is changing hands";
        if (retry) {
            // an earlier attempt may have executed it, and its decider's lease has not lapsed yet
            throw new OrderProblem.RegionTimedOut(region, changing + "; the order may have executed: retry with the same clientOrderId, which never executes twice");
        }
        throw new OrderProblem.RegionUnreachable(region, Duration.ofSeconds(1), changing + "; nothing was executed: retry");
    }

    /** A routed MARKET order at the instance deciding on its symbol: the decision taken before, if any, else a new one. */
    private Placement executeDeciding(PlaceOrder command, Listing listing, String placedRegion, BigDecimal maxPrice, boolean retry) {
        UUID orderId = OrderIds.of(command.customerId(), command.clientOrderId());
        Optional<MarketExecutions.Execution> before = executions.of(orderId);
        if (before.isPresent()) {
            // decided before: answered as it is once written, else its own fill written again (never a second decision)
            Order filled = before.get().filled();
            return new Placement(before.get().written() ? filled : executeRoutedHere(filled, filled.fillPrice()), false);
        }
        if (retry) {
            Optional<Order> existing = ledger.readOrder(command.customerId(), orderId);
            if (existing.isPresent()) {
                return new Placement(existing.get(), false);
            }
        }
        BigDecimal price = recentPrice(command.symbol());
        if (command.side() == Side.BUY && (maxPrice == null || price.compareTo(maxPrice) > 0)) {
            metrics.rejected("price.moved");
            throw new OrderProblem.NoPrice(command.symbol() + " is at " + price.toPlainString() + ", above the " + (maxPrice == null ? "(missing)"
                    : maxPrice.toPlainString()) + " a share the order's cash was reserved for; place it again");
        }
        Order order = new Order(orderId, command.customerId(), command.clientOrderId(), command.symbol(), listing.exchange(), command.side(),
                OrderType.MARKET, command.quantity(), null, null, BigDecimal.ZERO, OrderStatus.OPEN, placedRegion, Instant.now(),
                null, null, null, null);
        return new Placement(executeRoutedHere(order, price), true);
    }

    /** As {@link #execute}; a write of unknown outcome is answered 504, so the owner keeps the order's reservation. */
    private Order executeRoutedHere(Order order, BigDecimal price) {
        try {
            return execute(order, price);
        } catch (RuntimeException unknown) {
            throw new OrderProblem.RegionTimedOut(region, "order " + order.orderId() + " may have executed in " + region
                    + " (its write did not answer in time): retry with the same clientOrderId, which never executes twice");
        }
    }

    /**
     * Writes a MARKET order FILLED at {@code price} and publishes it: the fill decided before, if a
     * write of unknown outcome came first ({@link MarketExecutions}).
     */
    private Order execute(Order order, BigDecimal price) {
        MarketExecutions.Execution decided = executions.decide(order, price, region);
        Order filled = decided.filled();
        if (decided.written()) {
            return filled;
        }
        await(metrics.marketFillRow(System.nanoTime(), ledger.write(filled).toCompletableFuture()), filled);
        executions.written(filled);
        events.publish(OrderEvent.placed(filled, Instant.now(), region));
        metrics.placed(OrderType.MARKET, Duration.between(order.placedAt(), Instant.now()));
        return filled;
    }

    /** Whether the customer's owner (this instance) already holds the order: a retry. */
    private boolean knows(String customerId, UUID orderId) {
        return accounts.withAccount(customerId, account -> account.find(orderId).isPresent());
    }

    private BigDecimal recentPrice(String symbol) {
        Optional<LastPrices.LastPrice> known = lastPrices.of(symbol);
        return known.filter(p -> p.tickTime().isAfter(Instant.now().minus(maxPriceAge)))
                .map(LastPrices.LastPrice::price)
                .orElseThrow(() -> {
                    metrics.rejected("no.price");
                    log.debug("no recent price of {}: {}", symbol, known.map(Object::toString).orElse("none known here"));
                    return new OrderProblem.NoPrice("no price of " + symbol + " in the last " + maxPriceAge.toSeconds()
                            + " s: a MARKET order needs a recent tick; use a LIMIT order");
                });
    }

    /** A reserved order that surely never executed: its reservation goes. */
    private void release(Order order) {
        accounts.withAccount(order.customerId(), account -> {
            account.refused(order.orderId());
            return null;
        });
    }

    /** The order's event is out: its write is settled, and a retry answers it as it is. */
    private void settled(Order order) {
        accounts.withAccount(order.customerId(), account -> {
            account.written(order.orderId());
            return null;
        });
    }

    /** An order whose writes or event did not complete in time keeps its reservation; a retry with the same clientOrderId completes it. */
    private static void await(CompletableFuture<?> write, Order order) {
        try {
            write.get(WRITE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw unknownOutcome(order);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static OrderProblem unknownOutcome(Order order) {
        return new OrderProblem.NotOwner(order.customerId(), "order " + order.orderId() + " was not written in time; its cash or shares stay reserved "
                + "until it is: retry with the same clientOrderId, which never places twice");
    }

    /** The result of a cancel: the order, and whether this broker decided it ({@code false}: sent to the holder of its symbol, which decides). */
    public record Cancellation(Order order, boolean decided) {
    }

    /**
     * Cancels at once when this broker instance holds the order's symbol: its matcher decides, in
     * turn with ticks. Otherwise a cancel request is published, and whoever holds the symbol decides.
     */
    public Cancellation cancel(String customerId, UUID orderId) {
        Order order = get(customerId, orderId);
        if (!order.isOpen()) {
            throw new OrderProblem.Closed(orderId.toString(), order.status());
        }
        if (exchanges.holds(order.exchange()) && matcher.owns(order.symbol())) {
            Outcome outcome = awaitDecision(matcher.cancel(order.symbol(), customerId, orderId));
            if (outcome instanceof Outcome.Written) {
                return new Cancellation(get(customerId, orderId), true);
            }
            if (outcome instanceof Outcome.AlreadyClosed closed) {
                throw new OrderProblem.Closed(orderId.toString(), closed.status());
            }
        }
        if (!events.publishAndWait(OrderEvent.cancelRequested(order, region), CANCEL_WAIT)) {
            throw new OrderProblem.NotOwner(customerId, "the cancel of order " + orderId + " could not be recorded now; retry");
        }
        return new Cancellation(order, false);
    }

    /** A decision slower than this (its write being retried) is left to finish; the request published then is answered by the decision. */
    private static Outcome awaitDecision(CompletableFuture<Outcome> decision) {
        try {
            return decision.get(CANCEL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException slow) {
            return new Outcome.NotHeld();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * The order as this region's replicas hold it, else as the customer's home region does: an order
     * placed here is forwarded home and acknowledged here before its rows arrive across the WAN, and
     * the customer must still find it where they placed it (read, cancel).
     */
    public Order get(String customerId, UUID orderId) {
        return ledger.readOrder(customerId, orderId)
                .or(() -> homes.homeOf(customerId).filter(home -> !home.equals(region))
                        .flatMap(home -> router.lookUp(home, new OrderLookup(customerId, orderId))))
                .orElseThrow(() -> notFound(orderId));
    }

    /** The order as this region's replicas hold it: the home region's answer to {@link #get} from elsewhere. */
    public Order getHere(String customerId, UUID orderId) {
        return ledger.readOrder(customerId, orderId).orElseThrow(() -> notFound(orderId));
    }

    private static OrderProblem notFound(UUID orderId) {
        return new OrderProblem.NotFound("no order " + orderId);
    }

    /** Most ledger rows one page of a list reads. */
    public static final int MAX_PAGE_SIZE = 500;

    /**
     * One page of the customer's orders: {@code size} ledger rows from where {@code after} left off,
     * those of {@code status} kept (so a page may hold fewer, even none, and still have a next),
     * newest first within the page.
     */
    public LedgerPage list(String customerId, Optional<OrderStatus> status, int size, Optional<String> after) {
        if (size < 1 || size > MAX_PAGE_SIZE) {
            throw new OrderProblem.Invalid("size must be 1 to " + MAX_PAGE_SIZE);
        }
        LedgerPage page;
        try {
            page = ledger.readPage(customerId, size, after);
        } catch (IllegalArgumentException notThisList) {
            throw new OrderProblem.Invalid("'after' is not a page token of this list: pass the one its previous page's Link named");
        }
        return new LedgerPage(page.orders().stream()
                .filter(o -> status.map(s -> o.status() == s).orElse(true))
                .sorted(Comparator.comparing(Order::placedAt).reversed())
                .toList(), page.next());
    }

    /**
     * The ledger's balances and, when this instance owns the customer, the orders whose outcome is
     * not known yet (only the owner knows of them; an order the ledger already holds is not pending).
     */
    public Balances balances(String customerId) {
        LedgerSnapshot snapshot = snapshot(customerId);
        Set<UUID> inLedger = snapshot.orders().stream().map(Order::orderId).collect(Collectors.toSet());
        Optional<List<Pending>> pending = accounts.pending(customerId)
                .map(all -> all.stream().filter(p -> !inLedger.contains(p.orderId())).toList());
        return new Balances(snapshot.holdings(), pending);
    }

    /** A customer's balances: the ledger's, and the pending orders when answered by their owner. */
    public record Balances(Holdings ledger, Optional<List<Pending>> pending) {
    }

    /**
     * Finishes the placement of an order whose outcome stayed unknown, as the customer's retry with
     * the same clientOrderId would: its rows and event are written again (same cells, same
     * timestamps), a MARKET order is looked for where it was executed before it is executed. So it
     * is settled as soon as the servers answer again, never released while it may have landed.
     */
    Placement settle(Order unsettled) {
        PlaceOrder again = new PlaceOrder(unsettled.customerId(), unsettled.clientOrderId(), unsettled.symbol(), unsettled.side(),
                unsettled.type(), unsettled.quantity(), unsettled.triggerPrice());
        Listing listing = symbols.get(unsettled.symbol());
        return unsettled.type() == OrderType.MARKET
                ? placeMarket(again, listing, unsettled.placedRegion())
                : placeResting(again, listing, unsettled.placedRegion());
    }

    /** One page of the customer's fills, as {@link #list}, newest fill first within the page. */
    public LedgerPage transactions(String customerId, int size, Optional<String> after) {
        LedgerPage page = list(customerId, Optional.of(OrderStatus.FILLED), size, after);
        return new LedgerPage(page.orders().stream().sorted(Comparator.comparing(Order::filledAt).reversed()).toList(), page.next());
    }

    private LedgerSnapshot snapshot(String customerId) {
        return ledger.read(customerId).orElseThrow(() -> new OrderProblem.Invalid("no account for customer " + customerId));
    }

    private Order newOrder(UUID orderId, PlaceOrder c, String exchange, String placedRegion) {
        BigDecimal limit = c.type() == OrderType.LIMIT ? c.price() : null;
        BigDecimal stop = c.type() == OrderType.STOP ? c.price() : null;
        BigDecimal reserved = c.side() == Side.SELL ? BigDecimal.ZERO : reservationPerShare(c).multiply(BigDecimal.valueOf(c.quantity()));
        return new Order(orderId, c.customerId(), c.clientOrderId(), c.symbol(), exchange, c.side(), c.type(), c.quantity(), limit, stop,
                reserved, OrderStatus.OPEN, placedRegion, Instant.now(), null, null, null, null);
    }

    /** A BUY LIMIT never pays above its limit; a BUY STOP never above stop x (1 + collar), which is what the matcher enforces. */
    private BigDecimal reservationPerShare(PlaceOrder c) {
        return c.type() == OrderType.STOP
                ? c.price().multiply(BigDecimal.ONE.add(buyStopCollar)).setScale(4, RoundingMode.DOWN)
                : c.price();
    }

    /** A retry must be the same request; the same client order id for a different order is a mistake. */
    private static Order sameRequestOrRefuse(Order existing, PlaceOrder c) {
        boolean same = existing.symbol().equals(c.symbol()) && existing.side() == c.side() && existing.type() == c.type()
                && existing.quantity() == c.quantity() && samePrice(existing.triggerPrice(), c.price());
        if (!same) {
            throw new OrderProblem.Invalid("clientOrderId '" + c.clientOrderId() + "' was already used for a different order " + existing.orderId());
        }
        return existing;
    }

    private static boolean samePrice(BigDecimal a, BigDecimal b) {
        return a == null ? b == null : b != null && a.compareTo(b) == 0;
    }
}
