package org.brokerapp.broker.routing;

import java.math.BigDecimal;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;

/**
 * An order on its way from the region (or instance) where the customer placed it to the instance
 * owning the customer's account, in the customer's home region, which alone decides their balances.
 *
 * @param price the limit or stop price; absent for a MARKET order
 */
public record RoutedPlacement(String customerId, String clientOrderId, String symbol, Side side, OrderType type, long quantity, BigDecimal price,
                              String placedRegion) {
}
