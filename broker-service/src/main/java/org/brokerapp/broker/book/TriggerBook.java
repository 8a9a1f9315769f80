package org.brokerapp.broker.book;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The resting orders of one symbol, side and type, ordered by how soon a moving price reaches them.
 *
 * <p>Orders wait in {@link PriceLevel}s, one per trigger price, each a FIFO queue (time priority).
 * The levels form an indexed 4-ary min-heap on their key: the trigger price for a book that triggers
 * at or above it (SELL LIMIT, BUY STOP), its negation for one that triggers at or below it (BUY LIMIT,
 * SELL STOP), so the root is always the level the price reaches first. A map from key to level finds
 * the level of a new order.
 *
 * <p>Costs for n orders at L distinct prices (L &lt;= n): {@link #triggeredBy} O(1); {@link #add},
 * {@link #remove} and {@link #pollFirst} O(1) while the order's level exists before and after,
 * O(log L) when they create or empty a level. Built for books far bigger than the CPU caches, where
 * cost is cache misses: taking the first order touches its level, the order and nothing else unless
 * the level empties; heap keys sit in a {@code long[]} so that sifting touches no order, and four
 * children per node keep the heap shallow. The heap arrays grow by doubling and keep their capacity.
 * Mutable, owned by one {@link SortedTriggerIndex} and never shared.
 */
final class TriggerBook {

    private static final int INITIAL_CAPACITY = 8;
    private static final int ARITY = 4;

    private final boolean atOrAbove;
    private final Map<Long, PriceLevel> levelByKey = new HashMap<>();
    private long[] keys = new long[INITIAL_CAPACITY];
    private PriceLevel[] levels = new PriceLevel[INITIAL_CAPACITY];
    private int levelCount;
    private int size;

    /**
     * @param atOrAbove true if a price at or above an order's trigger price triggers it, false if a
     *                  price at or below it does
     */
    TriggerBook(boolean atOrAbove) {
        this.atOrAbove = atOrAbove;
    }

    /** Orders in the book. */
    int size() {
        return size;
    }

    /** Whether {@code price} triggers the first order of this book (and so at least one). */
    boolean triggeredBy(long price) {
        return levelCount > 0 && keys[0] <= key(price);
    }

    /** Queues the entry's order behind the orders already waiting at its price. */
    void add(BookEntry entry) {
        long key = key(entry.order.triggerPrice());
        PriceLevel level = levelByKey.get(key);
        if (level == null) {
            level = new PriceLevel(key);
            levelByKey.put(level.boxedKey, level);
            if (levelCount == levels.length) {
                grow();
            }
            siftUp(levelCount++, level);
        }
        level.append(entry);
        size++;
    }

    /** Removes and returns the first order: the one the price reaches first, the earliest among equals. */
    BookEntry pollFirst() {
        BookEntry first = levels[0].first();
        remove(first);
        return first;
    }

    void remove(BookEntry entry) {
        PriceLevel level = entry.level;
        level.unlink(entry);
        size--;
        if (level.isEmpty()) {
            levelByKey.remove(level.boxedKey);
            removeLevelAt(level.slot);
        }
    }

    void forEach(Consumer<RestingOrder> action) {
        for (int i = 0; i < levelCount; i++) {
            for (BookEntry entry = levels[i].first(); entry != null; entry = entry.next) {
                action.accept(entry.order);
            }
        }
    }

    private long key(long price) {
        return atOrAbove ? price : -price;
    }

    private void removeLevelAt(int slot) {
        int last = --levelCount;
        PriceLevel moved = levels[last];
        levels[last] = null;
        if (slot < last) {
            siftDown(slot, moved);
            if (levels[slot] == moved) {
                siftUp(slot, moved);
            }
        }
    }

    // Both sifts move a hole instead of swapping, and write the moving level once at the end.
    private void siftUp(int slot, PriceLevel level) {
        long key = level.key;
        while (slot > 0) {
            int parent = (slot - 1) / ARITY;
            if (keys[parent] <= key) {
                break;
            }
            place(slot, levels[parent]);
            slot = parent;
        }
        place(slot, level);
    }

    private void siftDown(int slot, PriceLevel level) {
        long key = level.key;
        while (true) {
            int first = ARITY * slot + 1;
            if (first >= levelCount) {
                break;
            }
            int best = first;
            for (int child = first + 1, end = Math.min(first + ARITY, levelCount); child < end; child++) {
                if (keys[child] < keys[best]) {
                    best = child;
                }
            }
            if (keys[best] >= key) {
                break;
            }
            place(slot, levels[best]);
            slot = best;
        }
        place(slot, level);
    }

    private void place(int slot, PriceLevel level) {
        keys[slot] = level.key;
        levels[slot] = level;
        level.slot = slot;
    }

    private void grow() {
        int capacity = levels.length * 2;
        keys = Arrays.copyOf(keys, capacity);
        levels = Arrays.copyOf(levels, capacity);
    }
}
