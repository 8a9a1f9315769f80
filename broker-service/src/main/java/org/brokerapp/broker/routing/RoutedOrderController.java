package org.brokerapp.broker.routing;

import java.net.URI;

import io.swagger.v3.oas.annotations.Hidden;
import org.brokerapp.broker.order.Order;
import org.brokerapp.broker.order.OrderRequests;
import org.brokerapp.broker.order.OrderService;
import org.brokerapp.broker.order.OrderType;
import org.brokerapp.broker.order.PlaceOrder;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The receiving side of {@link OrderRouter} (HTTP Basic user {@code router}): placements forwarded
 * to the owner of the customer's account, and MARKET orders sent to the region matching their
 * symbol. Not part of the customer API.
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

    @PostMapping(OrderRouter.PLACEMENTS)
    ResponseEntity<Order> place(@RequestBody RoutedPlacement routed, @RequestParam(defaultValue = "false") boolean passedOn) {
        var price = routed.type() == OrderType.LIMIT ? routed.price() : null;
        var stop = routed.type() == OrderType.STOP ? routed.price() : null;
        PlaceOrder command = requests.validate(routed.customerId(), new OrderRequests.PlaceOrderRequest(routed.clientOrderId(), routed.symbol(),
                routed.side(), routed.type(), java.math.BigDecimal.valueOf(routed.quantity()), price, stop));
        return answer(orders.placeForwarded(command, routed.placedRegion(), passedOn));
    }

    @PostMapping(OrderRouter.MARKET_ORDERS)
    ResponseEntity<Order> execute(@RequestBody RoutedMarketOrder routed) {
        PlaceOrder command = requests.validate(routed.customerId(), new OrderRequests.PlaceOrderRequest(routed.clientOrderId(), routed.symbol(),
                routed.side(), OrderType.MARKET, java.math.BigDecimal.valueOf(routed.quantity()), null, null));
        return answer(orders.executeRouted(command, routed.placedRegion(), routed.maxPrice(), routed.retry()));
    }

    private static ResponseEntity<Order> answer(OrderService.Placement placement) {
        return placement.created()
                ? ResponseEntity.created(URI.create("/api/orders/" + placement.order().orderId())).body(placement.order())
                : ResponseEntity.ok(placement.order());
    }
}
