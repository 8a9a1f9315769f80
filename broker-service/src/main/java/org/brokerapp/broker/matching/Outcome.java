package org.brokerapp.broker.matching;

import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;

/** What became of a decision the matcher took on an order: a fill or a cancel. */
public sealed interface Outcome {

    /** Written to the ledger at LOCAL_QUORUM: the decision stands. */
    record Written() implements Outcome {
    }

    /**
     * The order was closed already, by this decision's predecessor: the status it has, and the
     * order as the ledger has it when that is where this was found (null when the matcher knew).
     */
    record AlreadyClosed(OrderStatus status, Order ledgerOrder) implements Outcome {

        public AlreadyClosed(OrderStatus status) {
            this(status, null);
        }
    }

    /** The order's placement has not reached this region's DC yet; nothing was decided. */
    record NotVisible() implements Outcome {
    }

    /**
     * This broker instance does not hold the order's symbol (any more): nothing was decided, or a
     * decision in flight was abandoned and the order is left to the symbol's next holder.
     */
    record NotHeld() implements Outcome {
    }

    /**
     * Written, but this instance's fence moved on before the write was acknowledged (a pause, a
     * lapsed lease): the decision is not reported from here. The order's open_orders row stays, so
     * the symbol's next holder reads the ledger, where the larger fence's decision stands, and
     * reports that one.
     */
    record Fenced() implements Outcome {
    }
}
