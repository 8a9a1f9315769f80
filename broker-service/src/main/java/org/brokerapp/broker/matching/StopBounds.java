package org.brokerapp.broker.matching;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.book.RestingOrder;
import org.brokerapp.broker.core.PriceCollar;
import org.brokerapp.broker.core.PriceUnits;

/**
 * How far a triggered stop may trade: a STOP_LIMIT its limit, a BUY STOP its collar ({@link PriceCollar#bound},
 * which its reserved cash covers). A tick beyond the bound (a gap) leaves the order waiting as a LIMIT at it.
 */
record StopBounds(PriceCollar collar) {

    /** The bound in price units; 0 for none (a LIMIT, which triggers only within its limit, and a SELL STOP). */
    long of(RestingOrder order) {
        if (order.type() != OrderType.STOP) {
            return 0;
        }
        if (order.placedAs() == OrderType.STOP_LIMIT) {
            return order.limitPrice();
        }
        if (order.side() == Side.SELL) {
            return 0;
        }
        return PriceUnits.of(collar.bound(PriceUnits.toDecimal(order.triggerPrice())));
    }

    /** Whether a tick at {@code price} is beyond the order's bound: it then waits as a LIMIT at the bound. */
    boolean beyond(RestingOrder order, long bound, long price) {
        return bound > 0 && (order.side() == Side.BUY ? price > bound : price < bound);
    }
}
