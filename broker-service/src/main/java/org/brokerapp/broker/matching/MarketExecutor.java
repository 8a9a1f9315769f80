package org.brokerapp.broker.matching;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderIds;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.core.OrderWrites;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.Placement;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventPublisher;
import org.brokerapp.broker.market.LastPrices;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * MARKET orders in the region matching their exchange: executed at this region's latest price, at
 * most once per order id, by the one instance deciding on the symbol (the holder of its tick lease,
 * fenced as fills are). Any instance could execute one before, and under overload one did so twice,
 * at two prices (the broker-kill drill with two instances per region); now a retry after an attempt
 * that timed out finds the first decision where it was taken, or, once the lease has moved, its
 * write in the ledger.
 */
@Component
class MarketExecutor {

    private static final Logger log = LoggerFactory.getLogger(MarketExecutor.class);

    private final CustomerLedger ledger;
    private final OrderEventPublisher events;
    private final MatchingService matcher;
    private final SymbolUniverse symbols;
    private final ExchangeOwnership exchanges;
    private final BrokerMetrics metrics;
    private final LastPrices lastPrices;
    private final String region;
    private final Duration maxPriceAge;
    private final MarketExecutions executions = new MarketExecutions(System::nanoTime);

    MarketExecutor(CustomerLedger ledger, OrderEventPublisher events, MatchingService matcher, SymbolUniverse symbols,
                   ExchangeOwnership exchanges, BrokerMetrics metrics, LastPrices lastPrices, BrokerProperties properties) {
        this.ledger = ledger;
        this.events = events;
        this.matcher = matcher;
        this.symbols = symbols;
        this.exchanges = exchanges;
        this.metrics = metrics;
        this.lastPrices = lastPrices;
        this.region = properties.region();
        this.maxPriceAge = properties.market().maxPriceAge();
    }

    /**
     * A MARKET order routed here by its customer's owner, which reserved for at most {@code
     * maxPrice} a share (BUY). Empty when this instance does not decide on the symbol now: the caller
     * passes it to the instance that does.
     */
    Optional<Placement> executeRouted(PlaceOrder command, String placedRegion, BigDecimal maxPrice, boolean retry) {
        Listing listing = symbols.get(command.symbol());
        if (!exchanges.holds(listing.exchange())) {
            throw new OrderProblem.RegionUnreachable(region, Duration.ofSeconds(1), region + " does not match " + listing.exchange()
                    + " now; its owner is " + exchanges.ownerOf(listing.exchange()).region());
        }
        return matcher.executing(command.symbol(), () -> executeDeciding(command, listing, placedRegion, maxPrice, retry));
    }

    /**
     * A MARKET order at its owner, in the region matching it: executed at {@code price}, unless an
     * earlier attempt whose write's outcome was unknown ({@code created} false) landed already.
     */
    Placement executeAtOwner(Order order, boolean created, BigDecimal price) {
        Optional<Order> landed = created ? Optional.empty() : ledger.readOrder(order.customerId(), order.orderId());
        return landed.filter(o -> o.status() == OrderStatus.FILLED).map(o -> new Placement(o, false))
                .orElseGet(() -> new Placement(execute(order, price), created));
    }

    /** This region's latest price of the symbol, if recent enough to execute at; else refused (422). */
    BigDecimal recentPrice(String symbol) {
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
        OrderWrites.await(metrics.marketFillRow(System.nanoTime(), ledger.write(filled).toCompletableFuture()), filled);
        executions.written(filled);
        events.publish(OrderEvent.placed(filled, Instant.now(), region));
        metrics.placed(OrderType.MARKET, Duration.between(order.placedAt(), Instant.now()));
        return filled;
    }
}
