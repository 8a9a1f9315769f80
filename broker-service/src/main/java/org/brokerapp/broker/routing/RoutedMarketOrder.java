package org.brokerapp.broker.routing;

import java.math.BigDecimal;

import org.brokerapp.api.Side;

/**
 * A MARKET order on its way from its customer's owner to the region matching its symbol, which
 * executes it. The owner reserved the customer's cash for at most {@code maxPrice} a share (BUY;
 * absent for a SELL), so the executing region refuses a price above it. The order id, and so the
 * idempotency key, is derived from (customer, client order id) on both sides; {@code retry} says an
 * earlier attempt's outcome is unknown, so the executing region looks for the order before it executes.
 */
public record RoutedMarketOrder(String customerId, String clientOrderId, String symbol, Side side, long quantity, String placedRegion,
                                BigDecimal maxPrice, boolean retry) {

    /** The same order, sent again after an attempt whose outcome is unknown. */
    public RoutedMarketOrder asRetry() {
        return new RoutedMarketOrder(customerId, clientOrderId, symbol, side, quantity, placedRegion, maxPrice, true);
    }
}
