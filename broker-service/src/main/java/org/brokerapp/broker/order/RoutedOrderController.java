package org.brokerapp.broker.order;

import java.net.URI;

import io.swagger.v3.oas.annotations.Hidden;
import org.brokerapp.api.OrderType;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.Placement;
import org.brokerapp.broker.peer.PeerAuthenticationFilter;
import org.brokerapp.broker.peer.PeerCall;
import org.brokerapp.broker.routing.OrderLookup;
import org.brokerapp.broker.routing.OrderRouter;
import org.brokerapp.broker.routing.RoutedMarketOrder;
import org.brokerapp.broker.routing.RoutedPlacement;
import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The receiving side of {@link OrderRouter}: placements forwarded to the owner of the customer's
 * account, MARKET orders sent by that owner to the region matching their symbol, and look-ups of
 * an order another region's replicas do not hold yet. Every call is
 * signed by the calling region's broker for one customer ({@code peer.PeerAuthenticationFilter});
 * the order is taken only for that customer, and only from the region entitled to send it (403
 * otherwise), so no credential of a region can trade as anyone another region authenticated. Not
 * part of the customer API.
 */
@Hidden
@RestController
class RoutedOrderController {

    private final OrderService orders;
    private final OrderRequests requests;
    private final CustomerHomes homes;
    private final String region;

    RoutedOrderController(OrderService orders, OrderRequests requests, CustomerHomes homes, BrokerProperties properties) {
        this.orders = orders;
        this.requests = requests;
        this.homes = homes;
        this.region = properties.region();
    }

    /** Sent by the region where the customer placed the order, or passed on by another instance of this region. */
    @PostMapping(OrderRouter.PLACEMENTS)
    ResponseEntity<Order> place(@RequestBody RoutedPlacement routed, @RequestParam(defaultValue = "false") boolean passedOn, Authentication caller) {
        String sender = passedOn ? region : routed.placedRegion();
        requireSignedBy(caller, sender, routed.customerId());
        var price = routed.type() == OrderType.LIMIT ? routed.price() : routed.type() == OrderType.STOP_LIMIT ? routed.limitPrice() : null;
        var stop = routed.type() != null && routed.type().hasStop() ? routed.price() : null;
        PlaceOrder command = requests.validate(routed.customerId(), new OrderRequests.PlaceOrderRequest(routed.clientOrderId(), routed.symbol(),
                routed.side(), routed.type(), java.math.BigDecimal.valueOf(routed.quantity()), price, stop, routed.timeInForce(), routed.expireAt()));
        return answer(orders.placeForwarded(command, routed.placedRegion(), passedOn));
    }

    /**
     * Sent by the customer's home region, whose broker decided the customer's balances and reserved
     * for it, or passed on by another instance of this region to the one deciding on the symbol.
     */
    @PostMapping(OrderRouter.MARKET_ORDERS)
    ResponseEntity<Order> execute(@RequestBody RoutedMarketOrder routed, @RequestParam(defaultValue = "false") boolean passedOn, Authentication caller) {
        requireSignedBy(caller, passedOn ? region : homes.homeOf(routed.customerId()).orElse(null), routed.customerId());
        PlaceOrder command = requests.validate(routed.customerId(), new OrderRequests.PlaceOrderRequest(routed.clientOrderId(), routed.symbol(),
                routed.side(), OrderType.MARKET, java.math.BigDecimal.valueOf(routed.quantity()), null, null));
        return answer(orders.executeRouted(command, routed.placedRegion(), routed.maxPrice(), routed.retry(), passedOn));
    }

    /** Sent by a region the customer is not homed in, whose replicas do not hold the order (yet). */
    @PostMapping(OrderRouter.ORDER_LOOKUPS)
    ResponseEntity<Order> lookUp(@RequestBody OrderLookup lookup, Authentication caller) {
        requireSignedFor(caller, lookup.customerId()); // by any region: the customer may have placed it in any
        return ResponseEntity.ok(orders.getHere(lookup.customerId(), lookup.orderId()));
    }

    private static void requireSignedBy(Authentication caller, String sender, String customerId) {
        requireSignedFor(caller, customerId);
        if (!signed(caller).region().equals(sender)) {
            throw new AccessDeniedException("this call must be signed by " + sender + " for the order's customer");
        }
    }

    private static void requireSignedFor(Authentication caller, String customerId) {
        if (!signed(caller).customerId().equals(customerId)) {
            throw new AccessDeniedException("this call must be signed for the order's customer");
        }
    }

    private static PeerCall signed(Authentication caller) {
        return ((PeerAuthenticationFilter.Authenticated) caller).getPrincipal();
    }

    private static ResponseEntity<Order> answer(Placement placement) {
        return placement.created()
                ? ResponseEntity.created(URI.create("/api/orders/" + placement.order().orderId())).body(placement.order())
                : ResponseEntity.ok(placement.order());
    }
}
