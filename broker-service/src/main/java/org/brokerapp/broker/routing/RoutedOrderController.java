package org.brokerapp.broker.routing;

import java.net.URI;

import io.swagger.v3.oas.annotations.Hidden;
import org.brokerapp.broker.order.Order;
import org.brokerapp.broker.order.OrderRequests;
import org.brokerapp.broker.order.OrderService;
import org.brokerapp.broker.order.OrderType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The home side of a routed market order: brokers of other regions (HTTP Basic user
 * {@code router}) hand in orders their customers placed. Not part of the customer API.
 */
@Hidden
@RestController
class RoutedOrderController {

    private final OrderService orders;
    private final OrderRequests requests;

    RoutedOrderController(OrderService orders, OrderRequests requests) {
        this.orders = orders;
        this.requests = requests;
    }

    @PostMapping(MarketOrderRouter.PATH)
    ResponseEntity<Order> execute(@RequestBody RoutedMarketOrder routed) {
        var command = requests.validate(routed.customerId(), new OrderRequests.PlaceOrderRequest(routed.clientOrderId(), routed.symbol(),
                routed.side(), OrderType.MARKET, java.math.BigDecimal.valueOf(routed.quantity()), null, null));
        OrderService.Placement placement = orders.executeRouted(command, routed.placedRegion());
        return placement.created()
                ? ResponseEntity.created(URI.create("/api/orders/" + placement.order().orderId())).body(placement.order())
                : ResponseEntity.ok(placement.order());
    }
}
