package org.brokerapp.api;

/**
 * How long an order stays working: the API's {@code timeInForce}, as Alpaca and the exchanges name
 * them. DAY ends at the close of the symbol's exchange (the session the order was placed in, or the
 * next one when placed outside a session); GTD at the order's {@code expireAt}; GTC when filled or
 * cancelled. IOC and FOK trade at once or not at all.
 */
public enum TimeInForce {
    DAY,
    GTC,
    IOC,
    FOK,
    GTD
}
