package org.brokerapp.loadtest.workload;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

/** Every order a broker accepted during the run: what the correctness check looks for afterwards. Safe from any thread. */
public final class AcceptedOrders {

    private final Queue<AcceptedOrder> orders = new ConcurrentLinkedQueue<>();

    public void add(AcceptedOrder order) {
        orders.add(order);
    }

    public int size() {
        return orders.size();
    }

    /** By customer number, in acceptance order. */
    public Map<Integer, List<AcceptedOrder>> byCustomer() {
        return orders.stream().collect(Collectors.groupingBy(o -> o.planned().customer(), TreeMap::new, Collectors.toList()));
    }
}
