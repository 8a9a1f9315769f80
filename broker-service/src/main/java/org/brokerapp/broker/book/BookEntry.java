package org.brokerapp.broker.book;

/**
 * An order in a {@link TriggerBook}: a link in the queue of its {@link PriceLevel}, so that a cancel
 * unlinks it without a search. Mutable; owned by one {@link SortedTriggerIndex}.
 */
final class BookEntry {

    final RestingOrder order;
    final TriggerBook book;
    /** The level the order waits in; null once it has left the book. */
    PriceLevel level;
    /** The order before this one at its level; only meaningful while this one is not the level's head. */
    BookEntry previous;
    BookEntry next;

    BookEntry(RestingOrder order, TriggerBook book) {
        this.order = order;
        this.book = book;
    }
}
