package org.brokerapp.broker.core;

/** Where an order is in its life. Only OPEN changes, and only by one conditional update in the symbol's home region. */
public enum OrderStatus {
    OPEN,
    FILLED,
    CANCELLED
}
