package org.brokerapp.broker.book;

import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The open LIMIT and STOP orders of the symbols a regional broker matches, held in memory so that
 * a tick finds the orders it triggers without reading the database. Cassandra stays the source of
 * truth: the broker rebuilds the index from it on start and on taking over a symbol.
 *
 * <p><b>Not thread-safe, by contract.</b> The caller confines each index to one thread: the broker
 * partitions its symbols across matcher threads and gives every thread an index of its own, so the
 * per-tick path takes no lock. The consumer given to {@link #onTick} runs on that thread and must not
 * add, remove or clear orders of the index it is called from (it buffers such changes instead);
 * doing so throws {@link IllegalStateException}.
 *
 * <p>An order triggers at most once: the index removes it before reporting it. Among orders of the
 * same symbol, side and type with the same trigger price, those added earlier are reported earlier
 * (time priority); beyond that, the order of the reports is up to the implementation.
 */
public interface TriggerIndex {

    /**
     * Adds an open order.
     *
     * @return false, changing nothing, if an order with the same id is already in the index: the same
     *         order can arrive twice, e.g. from the placement path and from a rebuild
     */
    boolean add(RestingOrder order);

    /** Removes an order that was cancelled or filled elsewhere; empty if it is not (or no longer) in the index. */
    Optional<RestingOrder> remove(UUID orderId);

    /**
     * Removes every order of {@code symbol} a trade at {@code price} (in {@link org.brokerapp.broker.core.PriceUnits PriceUnits}) triggers,
     * see {@link RestingOrder#triggeredBy}, and hands each to {@code triggered}. Orders of other symbols
     * are never triggered. A tick that triggers nothing allocates nothing.
     *
     * <p>Each order leaves the index just before it is reported. If {@code triggered} throws, the
     * exception propagates and the orders not yet reported stay in the index.
     *
     * @throws IllegalArgumentException if the price is not positive
     */
    void onTick(String symbol, long price, Consumer<RestingOrder> triggered);

    /** Open orders of all symbols. */
    int size();

    /** Open orders of {@code symbol}. */
    int size(String symbol);

    boolean contains(UUID orderId);

    /** Drops every order of {@code symbol}, e.g. when the symbol's matching moves to another thread or region. */
    void clear(String symbol);
}
