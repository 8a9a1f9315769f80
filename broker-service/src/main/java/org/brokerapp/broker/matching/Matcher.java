package org.brokerapp.broker.matching;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.Placement;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.events.OrderEvent;
import org.springframework.stereotype.Component;

/**
 * The one door into matching for orders: an order to rest, a cancel request, a MARKET order to
 * execute. The owner's own placements and the events the relay brings come in here alike, and each
 * is decided by this instance only while it decides on the symbol ({@link
 * org.brokerapp.broker.deciding.SymbolFence}); ticks come in through {@link MatchingService#offer}.
 */
@Component
public class Matcher {

    /** What became of an order or cancel request handed in. */
    public enum Taking {
        /** Taken here, or needs no taking (its exchange is matched elsewhere now, or it was decided already). */
        TAKEN,
        /** Another instance of this region decides on the symbol: hand it there. */
        NOT_HELD_HERE,
        /** Nobody can take it now: hand it in again a moment later. */
        NOT_NOW
    }

    private final MatchingService matcher;
    private final MarketExecutor market;
    private final ExchangeOwnership exchanges;
    private final CustomerLedger ledger;

    Matcher(MatchingService matcher, MarketExecutor market, ExchangeOwnership exchanges, CustomerLedger ledger) {
        this.matcher = matcher;
        this.market = market;
        this.exchanges = exchanges;
        this.ledger = ledger;
    }

    /**
     * An order placed or cancel requested, from its owner or the relay. An event {@code replayed}
     * after a restart may have been decided since, by an instance that no longer remembers: its
     * order is checked against the ledger before it rests, and rests to be checked again before its
     * first decision if its row is not visible here (a placement's writes and event go out together,
     * so an event can outlive a write that failed). Its cancel waits for the decision.
     */
    public Taking take(OrderEvent event, boolean replayed) {
        if (!exchanges.holdsSymbol(event.symbol())) {
            // its exchange is matched elsewhere now; that region rebuilt the symbol's orders from open_orders when it took it
            return Taking.TAKEN;
        }
        if (!matcher.owns(event.symbol())) {
            return Taking.NOT_HELD_HERE;
        }
        Order order = event.order();
        if (event.type() == OrderEvent.Type.CANCEL_REQUESTED) {
            return Outcome.await(matcher.cancel(order.symbol(), order.customerId(), order.orderId())).closesTheOrder() ? Taking.TAKEN : Taking.NOT_NOW;
        }
        if (!replayed) {
            return rested(matcher.rest(RestingOrders.of(order), false));
        }
        Optional<Order> now = ledger.readOrder(order.customerId(), order.orderId());
        if (now.isEmpty()) {
            // its row is not visible here (not replicated yet, or its owner's write failed after the event went out): rest it
            // as taken over, so its first decision reads the ledger and waits for the row; waiting here would stall the relay
            return rested(matcher.rest(RestingOrders.of(order), true));
        }
        return now.get().isOpen() ? rested(matcher.rest(RestingOrders.of(now.get()), true)) : Taking.TAKEN;
    }

    private static Taking rested(boolean rested) {
        return rested ? Taking.TAKEN : Taking.NOT_NOW;
    }

    /**
     * A cancel decided here and now, in turn with ticks, when this instance decides on the order's
     * symbol; {@link Outcome.NotHeld} otherwise (the request then goes out as an event).
     */
    public CompletableFuture<Outcome> cancel(Order order) {
        if (!exchanges.holds(order.exchange()) || !matcher.owns(order.symbol())) {
            return CompletableFuture.completedFuture(new Outcome.NotHeld());
        }
        return matcher.cancel(order.symbol(), order.customerId(), order.orderId());
    }

    /**
     * A MARKET order routed here by its customer's owner, which reserved for at most {@code
     * maxPrice} a share (BUY): executed once. Empty when another instance of this region decides on
     * the symbol now.
     */
    public Optional<Placement> executeRouted(PlaceOrder command, String placedRegion, BigDecimal maxPrice, boolean retry) {
        return market.executeRouted(command, placedRegion, maxPrice, retry);
    }

    /** A MARKET order at its owner, in the region matching it, at {@code price}: the fill an earlier attempt wrote, if one did. */
    public Placement executeAtOwner(Order order, boolean created, BigDecimal price) {
        return market.executeAtOwner(order, created, price);
    }

    /** The symbol's latest price here, if recent enough for a MARKET order; else refused (422). */
    public BigDecimal recentPrice(String symbol) {
        return market.recentPrice(symbol);
    }
}
