package org.brokerapp.broker.order;

import java.time.Duration;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.TimeInForce;
import org.brokerapp.broker.account.Accounts;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.Placement;
import org.brokerapp.broker.core.Validity;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.routing.OrderRouter;
import org.brokerapp.broker.routing.RoutedPlacement;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.SymbolUniverse;
import org.springframework.stereotype.Component;

/**
 * Takes each placement to the one broker instance owning the customer's account, in the
 * customer's home region: placed anywhere else, it is forwarded there (one WAN round trip, or one
 * hop inside the region), where {@link OwnerPlacements} decides it.
 */
@Component
class Placements {

    private final CustomerHomes homes;
    private final Accounts accounts;
    private final OrderRouter router;
    private final OwnerPlacements owner;
    private final ExchangeOwnership exchanges;
    private final SymbolUniverse symbols;
    private final BrokerMetrics metrics;
    private final String region;

    Placements(CustomerHomes homes, Accounts accounts, OrderRouter router, OwnerPlacements owner, ExchangeOwnership exchanges,
               SymbolUniverse symbols, BrokerMetrics metrics, BrokerProperties properties) {
        this.homes = homes;
        this.accounts = accounts;
        this.router = router;
        this.owner = owner;
        this.exchanges = exchanges;
        this.symbols = symbols;
        this.metrics = metrics;
        this.region = properties.region();
    }

    /** Places an order a customer sent to this broker. */
    Placement place(PlaceOrder command) {
        long started = System.nanoTime();
        boolean market = command.type() == OrderType.MARKET;
        String executor = market ? exchanges.ownerOf(symbols.get(command.symbol()).exchange()).region() : region;
        try {
            Placement placement = placeForwarded(command, region, false);
            if (market) {
                metrics.marketOrder(executor, executor.equals(region), "filled", Duration.ofNanos(System.nanoTime() - started));
            }
            return placement;
        } catch (OrderProblem refused) {
            if (market) {
                metrics.marketOrder(executor, executor.equals(region), refused.title().toLowerCase().replace(' ', '.'),
                        Duration.ofNanos(System.nanoTime() - started));
            }
            throw refused;
        }
    }

    /**
     * Places an order for a customer who sent it to {@code placedRegion}: here if this instance owns
     * their account, else forwarded to the instance that does ({@code passedOn}: it was already, once).
     */
    Placement placeForwarded(PlaceOrder command, String placedRegion, boolean passedOn) {
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
            String other = accounts.ownerUrl(command.customerId()).orElseThrow(() -> new OrderProblem.NotOwner(command.customerId()));
            return router.forwardInRegion(other, routed(command, placedRegion));
        }
        return owner.place(command, symbols.get(command.symbol()), placedRegion);
    }

    /**
     * Finishes the placement of an order whose outcome stayed unknown, as the customer's retry with
     * the same clientOrderId would: its rows and event are written again (same cells, same
     * timestamps), a MARKET order is looked for where it was executed before it is executed. So it
     * is settled as soon as the servers answer again, never released while it may have landed.
     */
    Placement settle(Order unsettled) {
        PlaceOrder again = new PlaceOrder(unsettled.customerId(), unsettled.clientOrderId(), unsettled.symbol(), unsettled.side(),
                unsettled.type(), unsettled.quantity(), unsettled.limitPrice(), unsettled.stopPrice(), unsettled.validity());
        return owner.place(again, symbols.get(unsettled.symbol()), unsettled.placedRegion());
    }

    private static RoutedPlacement routed(PlaceOrder c, String placedRegion) {
        Validity v = c.validity();
        return new RoutedPlacement(c.customerId(), c.clientOrderId(), c.symbol(), c.side(), c.type(), c.quantity(), c.triggerPrice(), placedRegion,
                v.timeInForce(), v.timeInForce() == TimeInForce.GTD ? v.expiresAt() : null, c.type() == OrderType.STOP_LIMIT ? c.limitPrice() : null);
    }
}
