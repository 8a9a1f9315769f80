package org.brokerapp.broker.matching;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The resting orders of one symbol, side and type, ordered by how soon a moving price reaches them.
 *
 * <p>An indexed 4-ary min-heap on (key, sequence): the key is the trigger price for a book that
 * triggers at or above it (SELL LIMIT, BUY STOP) and its negation for one that triggers at or below
 * it (BUY LIMIT, SELL STOP), so the root is always the first order the price reaches; the sequence
 * (the order in which orders were added to the index) breaks ties in favour of the earlier order.
 * Every {@link BookEntry} knows its slot, so any order can leave without a search.
 *
 * <p>Built for a book far bigger than the CPU caches, where a tick's cost is its cache misses: key
 * and sequence of a slot sit side by side in one {@code long[]}, so comparisons touch no order
 * objects, and four children per node make the heap half as deep as a binary one, which halves the
 * slots a removal moves (each move also writes the moved entry's slot).
 *
 * <p>Costs for n orders: {@link #add}, {@link #remove} and {@link #pollFirst} O(log n),
 * {@link #triggeredBy} O(1). The arrays grow by doubling and keep their capacity. Mutable, owned by
 * one {@link SortedTriggerIndex} and never shared.
 */
final class TriggerBook {

    private static final int INITIAL_CAPACITY = 8;
    private static final int ARITY = 4;

    private final boolean atOrAbove;
    /** Key of slot i at [2i], its sequence at [2i + 1]. */
    private long[] ranks = new long[2 * INITIAL_CAPACITY];
    private BookEntry[] entries = new BookEntry[INITIAL_CAPACITY];
    private int size;

    /**
     * @param atOrAbove true if a price at or above an order's trigger price triggers it, false if a
     *                  price at or below it does
     */
    TriggerBook(boolean atOrAbove) {
        this.atOrAbove = atOrAbove;
    }

    int size() {
        return size;
    }

    /** Whether {@code price} triggers the first order of this book (and so at least one). */
    boolean triggeredBy(long price) {
        return size > 0 && ranks[0] <= key(price);
    }

    void add(BookEntry entry, long sequence) {
        if (size == entries.length) {
            grow();
        }
        siftUp(size++, key(entry.order.triggerPrice()), sequence, entry);
    }

    /** Removes and returns the first order: the one the price reaches first, the earliest among equals. */
    BookEntry pollFirst() {
        BookEntry first = entries[0];
        removeAt(0);
        return first;
    }

    void remove(BookEntry entry) {
        removeAt(entry.slot);
    }

    void forEach(Consumer<RestingOrder> action) {
        for (int i = 0; i < size; i++) {
            action.accept(entries[i].order);
        }
    }

    private long key(long price) {
        return atOrAbove ? price : -price;
    }

    private void removeAt(int slot) {
        BookEntry removed = entries[slot];
        int last = --size;
        long key = ranks[2 * last];
        long sequence = ranks[2 * last + 1];
        BookEntry moved = entries[last];
        entries[last] = null;
        removed.slot = -1;
        if (slot < last) {
            siftDown(slot, key, sequence, moved);
            if (entries[slot] == moved) {
                siftUp(slot, key, sequence, moved);
            }
        }
    }

    // Both sifts move a hole instead of swapping, and write the moving element once at the end.
    private void siftUp(int slot, long key, long sequence, BookEntry entry) {
        while (slot > 0) {
            int parent = (slot - 1) / ARITY;
            if (!precedes(key, sequence, ranks[2 * parent], ranks[2 * parent + 1])) {
                break;
            }
            moveTo(parent, slot);
            slot = parent;
        }
        place(slot, key, sequence, entry);
    }

    private void siftDown(int slot, long key, long sequence, BookEntry entry) {
        while (true) {
            int first = ARITY * slot + 1;
            if (first >= size) {
                break;
            }
            int best = first;
            for (int child = first + 1, end = Math.min(first + ARITY, size); child < end; child++) {
                if (precedes(ranks[2 * child], ranks[2 * child + 1], ranks[2 * best], ranks[2 * best + 1])) {
                    best = child;
                }
            }
            if (!precedes(ranks[2 * best], ranks[2 * best + 1], key, sequence)) {
                break;
            }
            moveTo(best, slot);
            slot = best;
        }
        place(slot, key, sequence, entry);
    }

    private static boolean precedes(long key, long sequence, long otherKey, long otherSequence) {
        return key < otherKey || (key == otherKey && sequence < otherSequence);
    }

    private void moveTo(int from, int to) {
        place(to, ranks[2 * from], ranks[2 * from + 1], entries[from]);
    }

    private void place(int slot, long key, long sequence, BookEntry entry) {
        ranks[2 * slot] = key;
        ranks[2 * slot + 1] = sequence;
        entries[slot] = entry;
        entry.slot = slot;
    }

    private void grow() {
        int capacity = entries.length * 2;
        ranks = Arrays.copyOf(ranks, 2 * capacity);
        entries = Arrays.copyOf(entries, capacity);
    }
}
