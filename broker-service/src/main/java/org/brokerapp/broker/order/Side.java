package org.brokerapp.broker.order;

/** Which way an order trades. */
public enum Side {
    BUY,
    SELL
}
