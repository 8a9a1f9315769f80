package org.brokerapp.broker.matching;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

import org.brokerapp.broker.book.RestingOrder;

/**
 * The matcher's resting orders that expire (DAY and GTD), by when: the next due is found in
 * O(log n), and an order leaving the book (filled, cancelled, its symbol given up) leaves here too,
 * so the set holds no more than the book. Owned by the matcher; not thread-safe.
 */
final class Expiries {

    private record Due(long atMillis, UUID orderId) implements Comparable<Due> {

        @Override
        public int compareTo(Due other) {
            int byTime = Long.compare(atMillis, other.atMillis);
            return byTime != 0 ? byTime : orderId.compareTo(other.orderId);
        }
    }

    private final TreeSet<Due> byTime = new TreeSet<>();
    private final Map<UUID, RestingOrder> orders = new HashMap<>();

    /** Tracks an order resting in the book; one good till cancelled, or tracked already, changes nothing. */
    void add(RestingOrder order) {
        if (order.expiresAt() != null && orders.putIfAbsent(order.orderId(), order) == null) {
            byTime.add(new Due(order.expiresAt().toEpochMilli(), order.orderId()));
        }
    }

    /** The order left the book. */
    void remove(UUID orderId) {
        RestingOrder order = orders.remove(orderId);
        if (order != null) {
            byTime.remove(new Due(order.expiresAt().toEpochMilli(), orderId));
        }
    }

    /** Whether an order's time is {@code nowMillis} or earlier. */
    boolean anyDue(long nowMillis) {
        return !byTime.isEmpty() && byTime.first().atMillis() <= nowMillis;
    }

    /** Takes out every order whose time is {@code nowMillis} or earlier, the earliest first. */
    List<RestingOrder> takeDue(long nowMillis) {
        List<RestingOrder> due = new ArrayList<>();
        while (!byTime.isEmpty() && byTime.first().atMillis() <= nowMillis) {
            due.add(orders.remove(byTime.pollFirst().orderId()));
        }
        return due;
    }

    /** The symbols left the matcher: their orders leave with them. */
    void clear(Collection<String> symbols) {
        orders.values().removeIf(order -> {
            if (symbols.contains(order.symbol())) {
                byTime.remove(new Due(order.expiresAt().toEpochMilli(), order.orderId()));
                return true;
            }
            return false;
        });
    }

    int size() {
        return orders.size();
    }
}
