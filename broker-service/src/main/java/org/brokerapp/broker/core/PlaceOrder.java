package org.brokerapp.broker.core;

import java.math.BigDecimal;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;

/**
 * A validated request to place an order, in the domain's terms.
 *
 * @param price       the limit price of a LIMIT order, the stop price of a STOP order, absent for MARKET
 * @param validity    GTC, DAY or GTD (with the instant it expires) for a LIMIT or STOP order; IOC for a MARKET order
 */
public record PlaceOrder(String customerId, String clientOrderId, String symbol, Side side, OrderType type, long quantity, BigDecimal price,
                         Validity validity) {

    /** A LIMIT or STOP order good till cancelled, a MARKET order immediate or cancel: what a request without a time in force asks. */
    public PlaceOrder(String customerId, String clientOrderId, String symbol, Side side, OrderType type, long quantity, BigDecimal price) {
        this(customerId, clientOrderId, symbol, side, type, quantity, price, type == OrderType.MARKET ? Validity.IMMEDIATE : Validity.GOOD_TILL_CANCELLED);
    }
}
