package org.brokerapp.broker.order;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.QueryConsistencyException;
import org.brokerapp.broker.failover.ExchangeOwnership;
import org.brokerapp.broker.ledger.CustomerLedger;
import org.brokerapp.broker.ledger.Holdings;
import org.brokerapp.broker.ledger.LedgerSnapshot;
import org.brokerapp.broker.market.LastPrices;
import org.brokerapp.broker.matching.MatchingService;
import org.brokerapp.broker.matching.Outcome;
import org.brokerapp.broker.matching.RestingOrders;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.routing.InboxEvent;
import org.brokerapp.broker.routing.MarketOrderRouter;
import org.brokerapp.broker.routing.OrderInbox;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;
import org.springframework.stereotype.Service;

/**
 * Placing, cancelling and reading orders. A LIMIT or STOP order is accepted once its ledger row is
 * written at LOCAL_QUORUM in this region; the home region of its symbol learns of it through the
 * inbox (or at once, when this region matches the symbol's exchange) and alone decides its fill or
 * cancellation. A MARKET order executes at once in the region that matches its exchange (its home,
 * unless it failed over); placed elsewhere, it is routed there and that region's answer is the answer.
 */
@Service
public class OrderService {

    private static final int MAX_ATTEMPTS = 16;
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(5);

    /** The result of a placement: the order, and whether this request created it (false for a retry). */
    public record Placement(Order order, boolean created) {
    }

    private final CustomerLedger ledger;
    private final OrderInbox inbox;
    private final MatchingService matcher;
    private final SymbolUniverse symbols;
    private final ExchangeOwnership exchanges;
    private final BrokerMetrics metrics;
    private final String region;
    private final BigDecimal buyStopCollar;
    private final LastPrices lastPrices;
    private final MarketOrderRouter router;
    private final Duration maxPriceAge;

    public OrderService(CustomerLedger ledger, OrderInbox inbox, MatchingService matcher, SymbolUniverse symbols, ExchangeOwnership exchanges,
                        BrokerMetrics metrics, BrokerProperties properties, LastPrices lastPrices, MarketOrderRouter router) {
        this.ledger = ledger;
        this.inbox = inbox;
        this.matcher = matcher;
        this.symbols = symbols;
        this.exchanges = exchanges;
        this.metrics = metrics;
        this.region = properties.region();
        this.buyStopCollar = properties.matching().buyStopCollar();
        this.lastPrices = lastPrices;
        this.router = router;
        this.maxPriceAge = properties.market().maxPriceAge();
    }

    /**
     * Places an order here. A MARKET order executes at once in its symbol's home region: here, or
     * routed there synchronously, whose answer becomes this request's answer.
     */
    public Placement place(PlaceOrder command) {
        Listing listing = symbols.get(command.symbol());
        if (command.type() != OrderType.MARKET) {
            return record(command, listing, region);
        }
        long started = System.nanoTime();
        boolean local = exchanges.holds(listing.exchange());
        String owner = exchanges.ownerOf(listing.exchange()).region();
        try {
            Placement placement = local ? record(command, listing, region) : router.route(requireElsewhere(owner, listing), command);
            metrics.marketOrder(owner, local, "filled", Duration.ofNanos(System.nanoTime() - started));
            return placement;
        } catch (OrderProblem refused) {
            metrics.marketOrder(owner, local, refused.title().toLowerCase().replace(' ', '.'), Duration.ofNanos(System.nanoTime() - started));
            throw refused;
        }
    }

    /** A MARKET order another region's broker routed here, where its symbol's exchange is matched, on behalf of a customer who placed it there. */
    public Placement executeRouted(PlaceOrder command, String placedRegion) {
        Listing listing = symbols.get(command.symbol());
        if (command.type() != OrderType.MARKET) {
            throw new OrderProblem.Invalid("only MARKET orders are routed");
        }
        if (!exchanges.holds(listing.exchange())) {
            throw new OrderProblem.RegionUnreachable(region, Duration.ofSeconds(1), region + " does not match " + listing.exchange()
                    + " now; its owner is " + exchanges.ownerOf(listing.exchange()).region());
        }
        return record(command, listing, placedRegion);
    }

    /** The owner is this region only while an exchange is being handed over to it: nobody executes until the handover ends. */
    private String requireElsewhere(String owner, Listing listing) {
        if (owner.equals(region)) {
            throw new OrderProblem.RegionUnreachable(region, Duration.ofSeconds(5), listing.exchange() + " is being handed over to " + region
                    + "; market orders execute again once the previous owner has stopped");
        }
        return owner;
    }

    /**
     * Writes the order into the customer's ledger: a LIMIT or STOP order OPEN (and on its way to
     * its home's matcher), a MARKET order FILLED at the latest price. Idempotent on the order id.
     */
    private Placement record(PlaceOrder command, Listing listing, String placedRegion) {
        long started = System.nanoTime();
        String home = exchanges.homeOf(listing.exchange());
        UUID orderId = OrderIds.of(command.customerId(), command.clientOrderId());
        boolean settle = false;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            LedgerSnapshot snapshot = ledger.read(command.customerId(), settle)
                    .orElseThrow(() -> new OrderProblem.Invalid("no account for customer " + command.customerId()));
            Optional<Order> existing = snapshot.order(orderId);
            if (existing.isPresent()) {
                return new Placement(sameRequestOrRefuse(existing.get(), command), false);
            }
            Order order = command.type() == OrderType.MARKET
                    ? executed(orderId, command, listing.exchange(), placedRegion)
                    : newOrder(orderId, command, listing.exchange());
            requireHoldings(snapshot.holdings(), order);
            if (order.isOpen()) {
                // the inbox entry goes first: once the ledger row exists, the home region is sure to hear of it
                inbox.post(home, InboxEvent.Kind.PLACE, order);
            }
            boolean placed;
            try {
                placed = ledger.place(order, region, snapshot.placementSeq(region));
            } catch (QueryConsistencyException | DriverTimeoutException contended) {
                // outcome unknown (Paxos contention on this customer): the settling read of the next attempt tells
                settle = true;
                continue;
            }
            if (placed) {
                if (order.isOpen() && exchanges.holds(order.exchange())) {
                    matcher.rest(RestingOrders.of(order), order.placedAt());
                }
                metrics.placed(order.type().name(), Duration.ofNanos(System.nanoTime() - started));
                return new Placement(order, true);
            }
        }
        throw new OrderProblem.Contended(command.customerId());
    }

    /** The result of a cancel: the order, and whether this broker decided it ({@code false}: sent to the holder of its symbol, which decides). */
    public record Cancellation(Order order, boolean decided) {
    }

    /**
     * Cancels at once when this broker instance holds the order's symbol: its matcher decides, in
     * turn with ticks. Otherwise the cancel goes to the inbox, and whoever holds the symbol decides.
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
        // every region reads every inbox; the instance holding the symbol decides
        inbox.post(exchanges.homeOf(order.exchange()), InboxEvent.Kind.CANCEL, order);
        return new Cancellation(order, false);
    }

    /** A decision slower than this (its write being retried) is left to finish; the inbox entry posted then is answered by the decision. */
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

    public Order get(String customerId, UUID orderId) {
        return ledger.readOrder(customerId, orderId).orElseThrow(() -> new OrderProblem.NotFound("no order " + orderId));
    }

    public List<Order> list(String customerId, Optional<OrderStatus> status) {
        return snapshot(customerId).orders().stream()
                .filter(o -> status.map(s -> o.status() == s).orElse(true))
                .sorted(Comparator.comparing(Order::placedAt).reversed())
                .toList();
    }

    public Holdings holdings(String customerId) {
        return snapshot(customerId).holdings();
    }

    public List<Order> transactions(String customerId) {
        return list(customerId, Optional.of(OrderStatus.FILLED)).stream()
                .sorted(Comparator.comparing(Order::filledAt).reversed()).toList();
    }

    private LedgerSnapshot snapshot(String customerId) {
        return ledger.read(customerId).orElseThrow(() -> new OrderProblem.Invalid("no account for customer " + customerId));
    }

    private Order newOrder(UUID orderId, PlaceOrder c, String exchange) {
        BigDecimal limit = c.type() == OrderType.LIMIT ? c.price() : null;
        BigDecimal stop = c.type() == OrderType.STOP ? c.price() : null;
        BigDecimal reserved = c.side() == Side.SELL ? BigDecimal.ZERO : reservationPerShare(c).multiply(BigDecimal.valueOf(c.quantity()));
        return new Order(orderId, c.customerId(), c.clientOrderId(), c.symbol(), exchange, c.side(), c.type(), c.quantity(), limit, stop,
                reserved, OrderStatus.OPEN, region, Instant.now(), null, null, null, null);
    }

    /** A market order as executed here, now, at the latest price of its symbol. */
    private Order executed(UUID orderId, PlaceOrder c, String exchange, String placedRegion) {
        LastPrices.LastPrice price = lastPrices.of(c.symbol())
                .filter(p -> p.tickTime().isAfter(Instant.now().minus(maxPriceAge)))
                .orElseThrow(() -> {
                    metrics.rejected("no.price");
                    return new OrderProblem.NoPrice("no price of " + c.symbol() + " in the last " + maxPriceAge.toSeconds()
                            + " s: a MARKET order needs a recent tick; use a LIMIT order");
                });
        Instant now = Instant.now();
        return new Order(orderId, c.customerId(), c.clientOrderId(), c.symbol(), exchange, c.side(), c.type(), c.quantity(), null, null,
                BigDecimal.ZERO, OrderStatus.FILLED, placedRegion, now, price.price(), now, region, null);
    }

    /** A BUY LIMIT never pays above its limit; a BUY STOP never above stop x (1 + collar), which is what the matcher enforces. */
    private BigDecimal reservationPerShare(PlaceOrder c) {
        return c.type() == OrderType.STOP
                ? c.price().multiply(BigDecimal.ONE.add(buyStopCollar)).setScale(4, RoundingMode.DOWN)
                : c.price();
    }

    private void requireHoldings(Holdings holdings, Order order) {
        BigDecimal cashNeeded = order.isOpen() ? order.reservedCash() : order.fillPrice().multiply(BigDecimal.valueOf(order.quantity()));
        if (order.side() == Side.BUY && holdings.availableCash().compareTo(cashNeeded) < 0) {
            metrics.rejected("insufficient.cash");
            throw new OrderProblem.Insufficient("buying " + order.quantity() + " " + order.symbol() + " needs " + cashNeeded.toPlainString()
                    + " available cash; available is " + holdings.availableCash().toPlainString());
        }
        if (order.side() == Side.SELL && holdings.availableShares(order.symbol()) < order.quantity()) {
            metrics.rejected("insufficient.shares");
            throw new OrderProblem.Insufficient("selling " + order.quantity() + " " + order.symbol() + " needs that many available shares; available: "
                    + holdings.availableShares(order.symbol()));
        }
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
