package org.brokerapp.broker.matching;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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

    /** The longest a caller waits for a decision; one slower (its write being retried) is left to finish. */
    Duration WAIT = Duration.ofSeconds(5);

    /** The decision, or {@link NotHeld} if it took longer than {@link #WAIT}: the caller then leaves it to whoever decides. */
    static Outcome await(CompletableFuture<Outcome> decision) {
        try {
            return decision.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException slow) {
            return new NotHeld();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new NotHeld();
        }
    }

    /** Whether the order is closed by now: this decision, or one before it. */
    default boolean closesTheOrder() {
        return this instanceof Written || this instanceof AlreadyClosed;
    }
}
