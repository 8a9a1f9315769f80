package org.brokerapp.broker.order;

import static org.brokerapp.broker.metrics.BrokerMetrics.PlacementStep.EVENT;
import static org.brokerapp.broker.metrics.BrokerMetrics.PlacementStep.ROWS;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.api.TimeInForce;
import org.brokerapp.broker.account.Accounts;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderIds;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.core.OrderWrites;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.Placement;
import org.brokerapp.broker.core.PriceCollar;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventPublisher;
import org.brokerapp.broker.matching.Matcher;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.routing.OrderRouter;
import org.brokerapp.broker.routing.RoutedMarketOrder;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.Listing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A placement at the instance owning the customer's account. The owner checks and reserves the
 * balance in memory, writes the order with one plain LOCAL_QUORUM write (a LIMIT or STOP order's
 * with its open_orders row, in one batch), publishes the order event and answers; the relay
 * carries the event to the region matching the symbol. A MARKET order executes at once in the
 * region matching its exchange: here, or sent there, with this reservation bounding the price it
 * may execute at.
 *
 * <p>A LIMIT or STOP placement starts its two rows (one batch, {@link RestingOrderRows}) and its
 * event together and answers 201 only once both are durable; if either fails or is late, 503 and
 * the reservation stays (a retry writes the same cells and publishes the same event). So an event
 * can be seen before its rows are durable, and, should the writes fail, without them. Every
 * consumer tolerates that: the matcher's fill and cancel write cells the placement never writes (a
 * row with only those is no order to any reader, {@code CustomerLedger.isComplete}); the delete of
 * the open_orders row after a decision wins over the insert by timestamp, not by arrival, so a late
 * insert stays deleted; an event replayed to a region where the row is not visible rests to be
 * checked against the ledger before its first decision; and the owner credits what a fill brings
 * only once the order's write is durable ({@code Account.filled}), so nothing bought by an order
 * that never landed is spent.
 */
@Component
class OwnerPlacements {

    private static final Logger log = LoggerFactory.getLogger(OwnerPlacements.class);


    /** What a placement step decided under the account's monitor: the order, whether to write it, whether it is new. */
    private record Reserved(Order order, boolean write, boolean created, boolean seenBefore) {

        Reserved(Order order, boolean write, boolean created) {
            this(order, write, created, false);
        }
    }

    private final RestingOrderRows restingRows;
    private final Accounts accounts;
    private final OrderEventPublisher events;
    private final Matcher matcher;
    private final ExchangeOwnership exchanges;
    private final OrderRouter router;
    private final BrokerMetrics metrics;
    private final String region;
    private final PriceCollar collar;

    OwnerPlacements(RestingOrderRows restingRows, Accounts accounts, OrderEventPublisher events, Matcher matcher, ExchangeOwnership exchanges,
                    OrderRouter router, BrokerMetrics metrics, BrokerProperties properties) {
        this.restingRows = restingRows;
        this.accounts = accounts;
        this.events = events;
        this.matcher = matcher;
        this.exchanges = exchanges;
        this.router = router;
        this.metrics = metrics;
        this.region = properties.region();
        this.collar = new PriceCollar(properties.matching().buyStopCollar());
    }

    /** Places an order of a customer this instance owns, sent to {@code placedRegion}. */
    Placement place(PlaceOrder command, Listing listing, String placedRegion) {
        return command.type() == OrderType.MARKET ? placeMarket(command, listing, placedRegion) : placeResting(command, listing, placedRegion);
    }

    /**
     * Under the account's monitor: the order this request names and whether to write it now. A
     * retry finds its order (written again only if its outcome is unknown); a new order is reserved
     * for {@code maxCost}, or refused (422) if the customer lacks it.
     */
    private Reserved reserve(PlaceOrder command, UUID orderId, Supplier<Order> fresh, Function<Order, BigDecimal> maxCost) {
        try {
            return reserveOnce(command, orderId, fresh, maxCost);
        } catch (OrderProblem.Insufficient | OrderProblem.TooManyOpen shortfall) {
            // fills and cancels reach the owner as events, just after their rows: the ledger may hold one that frees enough
            // cash, shares or room. Tried again whatever the catch-up found: the event itself may have come in meanwhile,
            // leaving it nothing to apply
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
        OrderEvent placed = OrderEvent.placed(order, Instant.now(), region);
        try {
            // the rows (one batch) and the event at once (rows first to the driver), answered only once both are durable: see the class comment
            long sent = System.nanoTime();
            CompletableFuture<Void> rows = metrics.placementStep(ROWS, sent, restingRows.write(order));
            CompletableFuture<Void> event = metrics.placementStep(EVENT, sent, events.publish(placed));
            OrderWrites.await(CompletableFuture.allOf(rows, event), order);
            settled(order);
        } finally {
            accounts.writeEnded(order.customerId(), order.orderId());
        }
        // matched here: to the matcher now, through the door the relay's events take (the relay brings it too, and it is indexed once)
        matcher.take(placed, false);
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
        BigDecimal price = matcher.recentPrice(command.symbol());
        BigDecimal perShare = here ? price : collar.cover(price);
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
                // an execution whose write's outcome was unknown may have landed: the matcher reads the ledger before executing again
                placement = matcher.executeAtOwner(order, reserved.created(), price);
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
            Optional<String> refusal = accounts.answered(filled);
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

    /** Whether the customer's owner (this instance) already holds the order: a retry. */
    private boolean knows(String customerId, UUID orderId) {
        return accounts.withAccount(customerId, account -> account.find(orderId).isPresent());
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

    private Order newOrder(UUID orderId, PlaceOrder c, String exchange, String placedRegion) {
        BigDecimal reserved = c.side() == Side.SELL ? BigDecimal.ZERO : reservationPerShare(c).multiply(BigDecimal.valueOf(c.quantity()));
        return new Order(orderId, c.customerId(), c.clientOrderId(), c.symbol(), exchange, c.side(), c.type(), c.quantity(), c.limitPrice(), c.stopPrice(),
                reserved, OrderStatus.OPEN, placedRegion, Instant.now(), null, null, null, null, c.validity());
    }

    /**
     * A BUY LIMIT or STOP_LIMIT never pays above its limit; a BUY STOP never above stop x (1 + collar), which is what the
     * matcher enforces.
     */
    private BigDecimal reservationPerShare(PlaceOrder c) {
        return c.type() == OrderType.STOP
                ? collar.bound(c.stopPrice())
                : c.limitPrice();
    }

    /**
     * A retry must be the same request; the same client order id for a different order is a mistake. A DAY order's expiry is
     * not compared: a retry after the close would fix a later one, and the order placed first stands.
     */
    private static Order sameRequestOrRefuse(Order existing, PlaceOrder c) {
        boolean same = existing.symbol().equals(c.symbol()) && existing.side() == c.side() && existing.type() == c.type()
                && existing.quantity() == c.quantity() && samePrice(existing.limitPrice(), c.limitPrice())
                && samePrice(existing.stopPrice(), c.stopPrice())
                && existing.validity().timeInForce() == c.validity().timeInForce()
                && (c.validity().timeInForce() != TimeInForce.GTD || c.validity().expiresAt().equals(existing.validity().expiresAt()));
        if (!same) {
            throw new OrderProblem.Invalid("clientOrderId '" + c.clientOrderId() + "' was already used for a different order " + existing.orderId());
        }
        return existing;
    }

    private static boolean samePrice(BigDecimal a, BigDecimal b) {
        return a == null ? b == null : b != null && a.compareTo(b) == 0;
    }
}
