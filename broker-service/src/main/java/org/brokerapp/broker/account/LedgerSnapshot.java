package org.brokerapp.broker.account;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;

/**
 * One read of a customer's ledger partition: the opening balance and every order. Balances are a fold over the orders: a fill only ever writes its own
 * order row, so concurrent fills in one region and placements in another never overwrite each
 * other's effect.
 */
public record LedgerSnapshot(String customerId, BigDecimal initialCash, Map<String, Long> initialPositions, List<Order> orders) {

    public LedgerSnapshot {
        initialPositions = Map.copyOf(initialPositions);
        orders = List.copyOf(orders);
    }

    public Optional<Order> order(UUID orderId) {
        return orders.stream().filter(o -> o.orderId().equals(orderId)).findFirst();
    }

    public Holdings holdings() {
        BigDecimal cash = initialCash;
        BigDecimal reservedCash = BigDecimal.ZERO;
        Map<String, Long> positions = new HashMap<>(initialPositions);
        Map<String, Long> reservedShares = new HashMap<>();
        for (Order o : orders) {
            boolean buy = o.side() == Side.BUY;
            if (o.status() == OrderStatus.FILLED) {
                BigDecimal value = o.fillPrice().multiply(BigDecimal.valueOf(o.quantity()));
                cash = buy ? cash.subtract(value) : cash.add(value);
                positions.merge(o.symbol(), buy ? o.quantity() : -o.quantity(), Long::sum);
            } else if (o.status() == OrderStatus.OPEN) {
                if (buy) {
                    reservedCash = reservedCash.add(o.reservedCash());
                } else {
                    reservedShares.merge(o.symbol(), o.quantity(), Long::sum);
                }
            }
        }
        positions.values().removeIf(q -> q == 0);
        return new Holdings(cash.setScale(Math.max(2, cash.scale()), RoundingMode.UNNECESSARY), reservedCash, positions, reservedShares);
    }
}
