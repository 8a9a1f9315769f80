package org.brokerapp.broker.routing;

import org.brokerapp.broker.order.Side;

/**
 * A MARKET order on its way from the region where the customer placed it to its symbol's home.
 * The order id, and so the idempotency key, is derived from (customer, client order id) on both
 * sides: a retried or duplicated request executes at most once.
 */
public record RoutedMarketOrder(String customerId, String clientOrderId, String symbol, Side side, long quantity, String placedRegion) {
}
