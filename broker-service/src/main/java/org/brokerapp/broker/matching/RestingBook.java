package org.brokerapp.broker.matching;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

import org.brokerapp.broker.book.RestingOrder;
import org.brokerapp.broker.book.SortedTriggerIndex;
import org.brokerapp.broker.book.TriggerIndex;

/**
 * The matcher's resting orders: the {@link TriggerIndex} ticks trigger them from, the {@link
 * Expiries} that say when the DAY and GTD ones expire, and which of them the matcher cannot vouch
 * for (taken over, or delivered again: their first decision reads the ledger). One class keeps the
 * three in step, so an order leaving the book leaves all three. Owned by the matcher's applying
 * thread; not thread-safe.
 */
final class RestingBook {

    private final TriggerIndex index = new SortedTriggerIndex();
    private final Expiries expiries = new Expiries();
    /** Order id to symbol, for the orders whose first decision reads the ledger. */
    private final Map<UUID, String> unverified = new HashMap<>();

    /** Rests an order; {@code verify}: its first decision reads the ledger. False if it rests already. */
    boolean add(RestingOrder order, boolean verify) {
        if (!index.add(order)) {
            return false;
        }
        expiries.add(order);
        if (verify) {
            unverified.put(order.orderId(), order.symbol());
        }
        return true;
    }

    /** Takes an order out (a cancel, an expiry): what rested, if it did. Whether it needs the ledger read is {@link #takeVerify}'s. */
    Optional<RestingOrder> remove(UUID orderId) {
        expiries.remove(orderId);
        return index.remove(orderId);
    }

    /** Whether the order's decision reads the ledger first; asked once per decision, as it is taken. */
    boolean takeVerify(UUID orderId) {
        return unverified.remove(orderId) != null;
    }

    /** The orders a tick of {@code symbol} at {@code price} triggers, each taken out of the book and handed to {@code triggered}. */
    void onTick(String symbol, long price, Consumer<RestingOrder> triggered) {
        index.onTick(symbol, price, triggered);
    }

    /** A triggered order left the index in {@link #onTick}: it leaves the expiries too. */
    void triggered(RestingOrder order) {
        expiries.remove(order.orderId());
    }

    boolean anyDue(long nowMillis) {
        return expiries.anyDue(nowMillis);
    }

    /** The orders whose time is {@code nowMillis} or earlier, out of the expiries (not yet out of the index: {@link #remove} does that). */
    List<RestingOrder> takeDue(long nowMillis) {
        return expiries.takeDue(nowMillis);
    }

    /** A due order this matcher cannot decide on now: due again at the next round. */
    void stillDue(RestingOrder order) {
        expiries.add(order);
    }

    /** The symbols left the matcher: their orders leave the book. */
    void clear(Collection<String> symbols) {
        symbols.forEach(index::clear);
        expiries.clear(symbols);
        unverified.values().removeIf(symbols::contains);
    }
}
