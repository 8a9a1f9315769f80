package org.brokerapp.broker.events;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The events Kafka refused (or never acknowledged) while the direct path carried them: they are
 * sent to Kafka again once it answers, so that what reads {@code order-events} besides the relay
 * (the search indexer) gets them too. In memory and bounded: a broker that stops first, or an
 * outage longer than the bound, leaves the rest to a reindex from Cassandra, which holds every order.
 */
final class KafkaBacklog {

    private final int capacity;
    private final ArrayDeque<OrderEvent> owed = new ArrayDeque<>();
    private long dropped;

    KafkaBacklog(int capacity) {
        this.capacity = capacity;
    }

    /** Remembers an event Kafka does not have; false (and counted) when the backlog is full. */
    synchronized boolean owe(OrderEvent event) {
        if (owed.size() >= capacity) {
            dropped++;
            return false;
        }
        owed.addLast(event);
        return true;
    }

    /** Every event owed, oldest first, and forgets them: the caller sends them again (and owes again what fails). */
    synchronized List<OrderEvent> takeAll() {
        List<OrderEvent> all = new ArrayList<>(owed);
        owed.clear();
        return all;
    }

    /** The oldest event owed, forgotten here, or null when nothing is owed: a probe whether Kafka answers again. */
    synchronized OrderEvent takeOldest() {
        return owed.pollFirst();
    }

    synchronized int size() {
        return owed.size();
    }

    synchronized long dropped() {
        return dropped;
    }
}
