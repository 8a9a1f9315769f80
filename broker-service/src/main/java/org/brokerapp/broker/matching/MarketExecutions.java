package org.brokerapp.broker.matching;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import org.brokerapp.api.OrderType;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;

/**
 * The MARKET orders this broker executed: one decision per order, kept from before its write. A
 * retry after a write of unknown outcome gets the same fill to write again, never a second one at
 * the price of its own moment: the ledger stamps an order's writes with one timestamp, so of two
 * fills at different prices Cassandra keeps the greater value, whichever was answered (a
 * broker-kill drill under overload found two such orders). Kept for {@link #MEMORY}, after which
 * the ledger itself says whether a write landed.
 */
final class MarketExecutions {

    static final Duration MEMORY = Duration.ofMinutes(10);
    private static final int FORGET_ABOVE = 1_000;

    /** An order's fill, decided; {@code written} once its row is durable. */
    record Execution(Order filled, long atNanos, boolean written) {
    }

    private final Map<UUID, Execution> executions = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;

    MarketExecutions(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** The order's fill: the one decided before if any, else {@code order} FILLED now at {@code price} by {@code region}. */
    Execution decide(Order order, BigDecimal price, String region) {
        forgetOld();
        return executions.computeIfAbsent(order.orderId(), id -> new Execution(new Order(order.orderId(), order.customerId(), order.clientOrderId(),
                order.symbol(), order.exchange(), order.side(), OrderType.MARKET, order.quantity(), null, null, BigDecimal.ZERO, OrderStatus.FILLED,
                order.placedRegion(), order.placedAt(), price, Instant.now(), region, null), nanoClock.getAsLong(), false));
    }

    /** The fill's row is durable: a retry is answered with it as it is. */
    void written(Order filled) {
        executions.put(filled.orderId(), new Execution(filled, nanoClock.getAsLong(), true));
    }

    /** What was decided for the order, while remembered. */
    Optional<Execution> of(UUID orderId) {
        forgetOld();
        return Optional.ofNullable(executions.get(orderId));
    }

    private void forgetOld() {
        if (executions.size() > FORGET_ABOVE) {
            long cutoff = nanoClock.getAsLong() - MEMORY.toNanos();
            executions.values().removeIf(e -> e.atNanos() - cutoff < 0);
        }
    }
}
