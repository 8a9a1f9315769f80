package org.brokerapp.broker.routing;

import java.math.BigDecimal;
import java.util.UUID;

import org.brokerapp.broker.order.OrderType;
import org.brokerapp.broker.order.Side;

/**
 * A request for the home region of a symbol: rest a newly placed order in its trigger index, or
 * cancel one. Written by the region where the customer acted, read by the home region's broker.
 */
public record InboxEvent(UUID eventId, Kind kind, String customerId, UUID orderId, String symbol, Side side, OrderType type,
                         long quantity, BigDecimal triggerPrice) {

    public enum Kind {
        PLACE,
        CANCEL
    }
}
