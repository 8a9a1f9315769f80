package org.brokerapp.broker.stream;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.events.OrderEvent;

/**
 * One pushed update: what happened to an order, as the event that reports it has it. A fill or
 * close decided by another region carries less of the order than its placement did (no
 * {@code clientOrderId} nor time in force); {@code GET /api/orders/{id}} has the whole order.
 *
 * @param event     PLACED, FILLED, CANCELLED or EXPIRED
 * @param decidedIn the region whose broker reported it
 * @param at        when the write it reports was durable
 */
record OrderUpdate(String event, UUID orderId, String clientOrderId, String symbol, String exchange, Side side, OrderType type, long quantity,
                   BigDecimal limitPrice, BigDecimal stopPrice, OrderStatus status, BigDecimal fillPrice, Instant filledAt, Instant closedAt,
                   String decidedIn, Instant at) {

    static OrderUpdate of(OrderEvent e) {
        return new OrderUpdate(e.type().name(), e.orderId(), e.clientOrderId(), e.symbol(), e.exchange(), e.side(), e.orderType(), e.quantity(),
                e.limitPrice(), e.stopPrice(), e.order().status(), e.fillPrice(), e.filledAt(), e.closedAt(), e.region(), e.durableAt());
    }
}
