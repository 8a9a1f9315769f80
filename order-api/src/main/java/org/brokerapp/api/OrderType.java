package org.brokerapp.api;

/**
 * How an order trades. LIMIT and STOP rest until a tick of the symbol's home region triggers them;
 * MARKET trades at once at the latest price, in the symbol's home region.
 */
public enum OrderType {
    LIMIT,
    STOP,
    MARKET
}
