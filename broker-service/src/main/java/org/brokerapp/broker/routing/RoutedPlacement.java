package org.brokerapp.broker.routing;

import java.math.BigDecimal;
import java.time.Instant;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.api.TimeInForce;

/**
 * An order on its way from the region (or instance) where the customer placed it to the instance
 * owning the customer's account, in the customer's home region, which alone decides their balances.
 *
 * @param price       the limit of a LIMIT, the stop of a STOP or STOP_LIMIT; absent for a MARKET order
 * @param timeInForce as the customer asked (absent: the type's default); a DAY order's expiry is the owner's to fix
 * @param expireAt    a GTD order's expiry
 * @param limitPrice  the limit of a STOP_LIMIT order (its {@code price} is the stop)
 */
public record RoutedPlacement(String customerId, String clientOrderId, String symbol, Side side, OrderType type, long quantity, BigDecimal price,
                              String placedRegion, TimeInForce timeInForce, Instant expireAt, BigDecimal limitPrice) {
}
