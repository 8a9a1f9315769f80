package org.brokerapp.broker.account;

/**
 * What one customer may do at once, held by their owner: how many orders they may have open
 * ({@code broker.matching.max-open-orders-per-customer}) and how many new ones they may place a
 * second ({@code broker.security.orders-per-second}), across every region and instance.
 */
public record AccountLimits(int maxOpenOrders, int ordersPerSecond) {

    public AccountLimits {
        if (maxOpenOrders < 1 || ordersPerSecond < 1) {
            throw new IllegalArgumentException("limits must be at least 1, were " + maxOpenOrders + " open orders and " + ordersPerSecond + " a second");
        }
    }
}
