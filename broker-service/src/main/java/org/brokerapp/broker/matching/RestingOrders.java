package org.brokerapp.broker.matching;

import org.brokerapp.broker.book.RestingOrder;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.PriceUnits;

/** The matcher's view of a ledger order. */
public final class RestingOrders {

    private RestingOrders() {
    }

    public static RestingOrder of(Order order) {
        return new RestingOrder(order.orderId(), order.customerId(), order.symbol(), order.side(), order.type(), order.quantity(),
                PriceUnits.of(order.triggerPrice()), order.placedAt(), order.validity().expiresAt());
    }
}
