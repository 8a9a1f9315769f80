package org.brokerapp.broker.account;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;

/**
 * An order whose placement's outcome is not known yet (its write or event did not answer in time)
 * and what it holds back meanwhile: shown beside the ledger's balances, since only the owner knows
 * of it, until the owner settles it ({@code order.UnsettledOrders}).
 *
 * @param reservedCash   what a BUY holds back
 * @param reservedShares what a SELL holds back
 * @param since          when it was reserved
 */
public record Pending(UUID orderId, String clientOrderId, String symbol, Side side, long quantity, BigDecimal reservedCash,
                      long reservedShares, Instant since) {

    static Pending of(Order order, Instant since) {
        boolean buy = order.side() == Side.BUY;
        return new Pending(order.orderId(), order.clientOrderId(), order.symbol(), order.side(), order.quantity(),
                buy ? order.reservedCash() : BigDecimal.ZERO, buy ? 0 : order.quantity(), since);
    }
}
