package org.brokerapp.broker.core;

/**
 * Where an order is in its life. Only OPEN changes, and only by the decision of the symbol's one
 * decider: a fill, a cancel, or (DAY and GTD orders) its expiry.
 */
public enum OrderStatus {
    OPEN,
    FILLED,
    CANCELLED,
    EXPIRED;

    /** Closed without a fill: whatever the order reserved goes back. */
    public boolean closedUnfilled() {
        return this == CANCELLED || this == EXPIRED;
    }
}
