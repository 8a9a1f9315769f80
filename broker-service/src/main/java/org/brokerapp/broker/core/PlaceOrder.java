package org.brokerapp.broker.core;

import java.math.BigDecimal;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;

/**
 * A validated request to place an order, in the domain's terms.
 *
 * @param price the limit price of a LIMIT order, the stop price of a STOP order, absent for MARKET
 */
public record PlaceOrder(String customerId, String clientOrderId, String symbol, Side side, OrderType type, long quantity, BigDecimal price) {
}
