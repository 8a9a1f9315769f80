package org.brokerapp.api;

/**
 * How an order trades. LIMIT, STOP and STOP_LIMIT rest until a tick of the symbol's home region
 * triggers them; MARKET trades at once at the latest price, in the symbol's home region. A
 * STOP_LIMIT is a STOP that, once triggered, trades only at its limit or better: a LIMIT from then on.
 */
public enum OrderType {
    LIMIT,
    STOP,
    MARKET,
    STOP_LIMIT;

    /** Whether a tick reaching its stop price triggers it (STOP, STOP_LIMIT). */
    public boolean hasStop() {
        return this == STOP || this == STOP_LIMIT;
    }

    /** Whether it never trades beyond a limit price of its own (LIMIT, STOP_LIMIT). */
    public boolean hasLimit() {
        return this == LIMIT || this == STOP_LIMIT;
    }
}
