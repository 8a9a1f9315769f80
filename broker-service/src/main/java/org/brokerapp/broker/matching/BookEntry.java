package org.brokerapp.broker.matching;

/**
 * An order in a {@link TriggerBook}, with the heap slot it occupies there, so that a cancel finds it
 * without a search. Mutable: the book moves it between slots. Owned by one {@link SortedTriggerIndex}.
 */
final class BookEntry {

    final RestingOrder order;
    final TriggerBook book;
    /** Index into the book's heap arrays, -1 once the order has left the book. */
    int slot = -1;

    BookEntry(RestingOrder order, TriggerBook book) {
        this.order = order;
        this.book = book;
    }
}
