package org.brokerapp.api;

/** Which way an order trades: the API's {@code side}. */
public enum Side {
    BUY,
    SELL
}
