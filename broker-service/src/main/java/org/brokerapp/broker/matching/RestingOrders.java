package org.brokerapp.broker.matching;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.book.RestingOrder;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.PriceUnits;

/** The matcher's view of a ledger order. */
public final class RestingOrders {

    private RestingOrders() {
    }

    public static RestingOrder of(Order order) {
        return of(order.orderId(), order.customerId(), order.symbol(), order.side(), order.type(), order.quantity(), order.triggerPrice(),
                order.limitPrice(), order.placedAt(), order.validity().expiresAt());
    }

    /** An order placed as {@code placedAs}: a STOP_LIMIT waits as a STOP at {@code triggerPrice} and keeps its {@code limitPrice}. */
    public static RestingOrder of(UUID orderId, String customerId, String symbol, Side side, OrderType placedAs, long quantity,
                                  BigDecimal triggerPrice, BigDecimal limitPrice, Instant placedAt, Instant expiresAt) {
        boolean stopLimit = placedAs == OrderType.STOP_LIMIT;
        return new RestingOrder(orderId, customerId, symbol, side, placedAs.hasStop() ? OrderType.STOP : OrderType.LIMIT, quantity,
                PriceUnits.of(triggerPrice), placedAt, expiresAt, placedAs, stopLimit ? PriceUnits.of(limitPrice) : 0);
    }
}
