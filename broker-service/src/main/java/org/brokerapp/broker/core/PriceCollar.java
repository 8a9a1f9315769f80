package org.brokerapp.broker.core;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * How far above a price a BUY may pay when the price it trades at is not known when its cash is
 * reserved ({@code broker.matching.buy-stop-collar}): a BUY STOP above its stop, and a MARKET order
 * routed to another region above the last price seen here. The owner reserves by this rule and
 * the decider fills by it, so the two never disagree.
 *
 * @param share the share above the price, e.g. 0.10
 */
public record PriceCollar(BigDecimal share) {

    /** The most a BUY STOP at {@code stop} may pay per share, to 4 decimals (down: the reservation of it covers it). */
    public BigDecimal bound(BigDecimal stop) {
        return stop.multiply(BigDecimal.ONE.add(share)).setScale(4, RoundingMode.DOWN);
    }

    /** What to reserve per share for a BUY at up to the collar above {@code price}, to 4 decimals (up: never short). */
    public BigDecimal cover(BigDecimal price) {
        return price.multiply(BigDecimal.ONE.add(share)).setScale(4, RoundingMode.UP);
    }
}
