package org.brokerapp.broker.book;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

import org.brokerapp.broker.core.PriceUnits;

/**
 * The obviously correct {@link TriggerIndex}: the orders of each symbol in a list, every one of them
 * tested with {@link RestingOrder#triggeredBy} on every tick. A tick costs O(n) in the symbol's open
 * orders, so this is the oracle that {@link SortedTriggerIndex} is tested and benchmarked against,
 * not something to match a busy symbol with. Single-threaded, as the interface says.
 */
final class ScanningTriggerIndex implements TriggerIndex {

    private final Map<String, List<RestingOrder>> bySymbol = new HashMap<>();
    private final Map<UUID, RestingOrder> byId = new HashMap<>();
    private boolean reporting;

    @Override
    public boolean add(RestingOrder order) {
        requireNotReporting();
        if (byId.putIfAbsent(order.orderId(), order) != null) {
            return false;
        }
        bySymbol.computeIfAbsent(order.symbol(), s -> new ArrayList<>()).add(order);
        return true;
    }

    @Override
    public Optional<RestingOrder> remove(UUID orderId) {
        requireNotReporting();
        RestingOrder order = byId.remove(orderId);
        if (order == null) {
            return Optional.empty();
        }
        bySymbol.get(order.symbol()).remove(order);
        return Optional.of(order);
    }

    @Override
    public void onTick(String symbol, long price, Consumer<RestingOrder> triggered) {
        Objects.requireNonNull(triggered, "triggered");
        PriceUnits.requirePositive(price);
        List<RestingOrder> orders = bySymbol.get(symbol);
        if (orders == null) {
            return;
        }
        reporting = true;
        try {
            // by index, not iterator: no allocation, and the list is consistent whenever triggered runs
            for (int i = 0; i < orders.size(); i++) {
                RestingOrder order = orders.get(i);
                if (order.triggeredBy(price)) {
                    orders.remove(i--);
                    byId.remove(order.orderId());
                    triggered.accept(order);
                }
            }
        } finally {
            reporting = false;
        }
    }

    @Override
    public int size() {
        return byId.size();
    }

    @Override
    public int size(String symbol) {
        List<RestingOrder> orders = bySymbol.get(symbol);
        return orders == null ? 0 : orders.size();
    }

    @Override
    public boolean contains(UUID orderId) {
        return byId.containsKey(orderId);
    }

    @Override
    public void clear(String symbol) {
        requireNotReporting();
        List<RestingOrder> orders = bySymbol.remove(symbol);
        if (orders != null) {
            orders.forEach(o -> byId.remove(o.orderId()));
        }
    }

    private void requireNotReporting() {
        if (reporting) {
            throw new IllegalStateException("the index cannot change while it reports a tick's triggered orders");
        }
    }
}
