package org.brokerapp.broker.core;

/** Which way an order trades. */
public enum Side {
    BUY,
    SELL
}
