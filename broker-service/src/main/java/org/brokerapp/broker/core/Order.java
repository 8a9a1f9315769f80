package org.brokerapp.broker.core;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;

/**
 * An order as the ledger holds it. {@code limitPrice} is set for LIMIT and STOP_LIMIT orders,
 * {@code stopPrice} for STOP and STOP_LIMIT orders; {@code reservedCash} is what a BUY holds back from the customer's cash while
 * it is open. Fill fields are set once the order is FILLED; {@code validity} says how long it may
 * rest (its time in force).
 */
public record Order(UUID orderId, String customerId, String clientOrderId, String symbol, String exchange, Side side,
                    OrderType type, long quantity, BigDecimal limitPrice, BigDecimal stopPrice, BigDecimal reservedCash,
                    OrderStatus status, String placedRegion, Instant placedAt, BigDecimal fillPrice, Instant filledAt,
                    String filledBy, Instant closedAt, Validity validity) {

    public Order {
        if (validity == null) {
            validity = type == OrderType.MARKET ? Validity.IMMEDIATE : Validity.GOOD_TILL_CANCELLED;
        }
    }

    /** An order without a time in force of its own: good till cancelled, or (MARKET) immediate or cancel. */
    public Order(UUID orderId, String customerId, String clientOrderId, String symbol, String exchange, Side side, OrderType type, long quantity,
                 BigDecimal limitPrice, BigDecimal stopPrice, BigDecimal reservedCash, OrderStatus status, String placedRegion, Instant placedAt,
                 BigDecimal fillPrice, Instant filledAt, String filledBy, Instant closedAt) {
        this(orderId, customerId, clientOrderId, symbol, exchange, side, type, quantity, limitPrice, stopPrice, reservedCash, status, placedRegion,
                placedAt, fillPrice, filledAt, filledBy, closedAt, null);
    }

    /** The price a tick is compared with first: the limit for LIMIT orders, the stop for STOP and STOP_LIMIT orders. */
    public BigDecimal triggerPrice() {
        return type != null && type.hasStop() ? stopPrice : limitPrice;
    }

    public boolean isOpen() {
        return status == OrderStatus.OPEN;
    }
}
