package org.brokerapp.broker.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.book.RestingOrder;
import org.junit.jupiter.api.Test;

/** The book keeps its index and its expiries in step: an order that left one way is never expired, an expired one never fills. */
class RestingBookTests {

    private static final Instant T = Instant.parse("2026-12-07T21:00:00Z");

    private final RestingBook book = new RestingBook();

    @Test
    void ordersExpireInTheOrderOfTheirTimeAndOnlyOnceDue() {
        RestingOrder later = order("IBM", T.plusSeconds(60));
        RestingOrder first = order("IBM", T);
        RestingOrder never = order("IBM", null);
        book.add(later, false);
        book.add(first, false);
        book.add(never, false);

        assertThat(book.anyDue(T.toEpochMilli() - 1)).isFalse();
        assertThat(book.takeDue(T.plusSeconds(60).toEpochMilli())).containsExactly(first, later);
        assertThat(book.takeDue(Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void anOrderThatLeftTheBookIsNotDueAnyMore() {
        RestingOrder cancelled = order("IBM", T);
        RestingOrder triggered = order("IBM", T);
        RestingOrder given = order("KO", T);
        book.add(cancelled, false);
        book.add(triggered, false);
        book.add(given, false);

        book.remove(cancelled.orderId());
        List<RestingOrder> filled = new ArrayList<>();
        book.onTick("IBM", 1, filled::add);
        filled.forEach(book::triggered);
        book.clear(Set.of("KO"));

        assertThat(filled).containsExactly(triggered);
        assertThat(book.takeDue(Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void anExpiredOrderIsNoLongerTriggeredOnceRemoved() {
        RestingOrder due = order("IBM", T);
        book.add(due, true);

        assertThat(book.takeDue(T.toEpochMilli())).containsExactly(due);
        assertThat(book.remove(due.orderId())).contains(due);
        assertThat(book.takeVerify(due.orderId())).isTrue();
        List<RestingOrder> filled = new ArrayList<>();
        book.onTick("IBM", 1, filled::add);
        assertThat(filled).isEmpty();
    }

    @Test
    void aDueOrderThatCannotBeDecidedNowIsDueAgain() {
        RestingOrder due = order("IBM", T);
        book.add(due, false);

        book.takeDue(T.toEpochMilli()).forEach(book::stillDue);

        assertThat(book.takeDue(T.toEpochMilli())).containsExactly(due);
    }

    /** A BUY LIMIT at 100.0000 (in price units), which any tick at or below it triggers. */
    private static RestingOrder order(String symbol, Instant expiresAt) {
        return new RestingOrder(UUID.randomUUID(), "alice", symbol, Side.BUY, OrderType.LIMIT, 10, 1_000_000, T.minusSeconds(3600), expiresAt);
    }
}
