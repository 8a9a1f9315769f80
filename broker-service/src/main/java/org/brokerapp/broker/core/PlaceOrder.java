package org.brokerapp.broker.core;

import java.math.BigDecimal;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;

/**
 * A validated request to place an order, in the domain's terms.
 *
 * @param limitPrice  the limit of a LIMIT or STOP_LIMIT order, absent for the others
 * @param stopPrice   the stop of a STOP or STOP_LIMIT order, absent for the others
 * @param validity    GTC, DAY or GTD (with the instant it expires) for a resting order; IOC for a MARKET order
 */
public record PlaceOrder(String customerId, String clientOrderId, String symbol, Side side, OrderType type, long quantity, BigDecimal limitPrice,
                         BigDecimal stopPrice, Validity validity) {

    /** A LIMIT or STOP order at {@code price} good till cancelled, a MARKET order immediate or cancel. */
    public PlaceOrder(String customerId, String clientOrderId, String symbol, Side side, OrderType type, long quantity, BigDecimal price) {
        this(customerId, clientOrderId, symbol, side, type, quantity, type == OrderType.LIMIT ? price : null, type == OrderType.STOP ? price : null,
                type == OrderType.MARKET ? Validity.IMMEDIATE : Validity.GOOD_TILL_CANCELLED);
    }

    /** The price a tick is compared with first: the stop of a STOP or STOP_LIMIT order, else the limit. */
    public BigDecimal triggerPrice() {
        return type.hasStop() ? stopPrice : limitPrice;
    }
}
