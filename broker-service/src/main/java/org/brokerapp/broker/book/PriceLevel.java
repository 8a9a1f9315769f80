package org.brokerapp.broker.book;

/**
 * The orders of one {@link TriggerBook} at one trigger price, in the order they arrived: a queue
 * linked through the {@link BookEntry}s themselves. Mutable; owned by its book.
 */
final class PriceLevel {

    /** The book's heap key of this price. */
    final long key;
    /** {@link #key} boxed once, so that the book's lookup map can drop the level without boxing. */
    final Long boxedKey;
    /** Index in the book's heap of levels. */
    int slot;
    private BookEntry head;
    private BookEntry tail;

    PriceLevel(long key) {
        this.key = key;
        this.boxedKey = key;
    }

    boolean isEmpty() {
        return head == null;
    }

    BookEntry first() {
        return head;
    }

    void append(BookEntry entry) {
        entry.level = this;
        if (head == null) {
            head = entry;
        } else {
            tail.next = entry;
            entry.previous = tail;
        }
        tail = entry;
    }

    void unlink(BookEntry entry) {
        BookEntry previous = entry == head ? null : entry.previous;
        BookEntry next = entry.next;
        if (previous == null) {
            head = next;
        } else {
            previous.next = next;
        }
        if (next == null) {
            tail = previous;
        } else if (previous != null) {
            next.previous = previous;
        }
        // a new head's link back is never read, so taking the head leaves the next entry untouched: one cache miss less
        entry.level = null;
        entry.previous = null;
        entry.next = null;
    }
}
