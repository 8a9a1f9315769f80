package org.brokerapp.broker.account;

import java.math.BigDecimal;
import java.util.Optional;

import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;

/**
 * Whether a reported fill can be a fill of the owner's own open order. A fill reaches the owner
 * from another process (a decider's event, a routed MARKET order's answer, a ledger row), and the
 * owner books it against its customer's money: so it is checked against what the owner knows of
 * the order, not believed. A fill must have the order's side and quantity and a price above 0; a
 * BUY may cost at most what it reserved (and a LIMIT or STOP_LIMIT BUY at most its limit a share); a
 * LIMIT or STOP_LIMIT SELL must bring at least its limit. A fill that passes cannot make any balance negative, whoever sent
 * it: it costs no more than was held back for it.
 */
final class FillCheck {

    private FillCheck() {
    }

    /** Why {@code price} for {@code quantity} on {@code side} is not a fill of {@code mine}; empty if it can be. */
    static Optional<String> refusal(Order mine, Side side, long quantity, BigDecimal price) {
        if (price == null || price.signum() <= 0) {
            return Optional.of("a fill price must be above 0");
        }
        if (side != mine.side()) {
            return Optional.of("the fill's side " + side + " is not the order's " + mine.side());
        }
        if (quantity != mine.quantity()) {
            return Optional.of("the fill's quantity " + quantity + " is not the order's " + mine.quantity());
        }
        if (side == Side.BUY) {
            if (mine.type().hasLimit() && price.compareTo(mine.limitPrice()) > 0) {
                return Optional.of("a BUY " + mine.type() + " at " + mine.limitPrice().toPlainString() + " cannot fill at " + price.toPlainString());
            }
            BigDecimal cost = price.multiply(BigDecimal.valueOf(quantity));
            if (mine.reservedCash() == null || cost.compareTo(mine.reservedCash()) > 0) {
                return Optional.of("the fill costs " + cost.toPlainString() + ", more than the " + plain(mine.reservedCash()) + " reserved for it");
            }
        } else if (mine.type().hasLimit() && price.compareTo(mine.limitPrice()) < 0) {
            return Optional.of("a SELL " + mine.type() + " at " + mine.limitPrice().toPlainString() + " cannot fill at " + price.toPlainString());
        }
        return Optional.empty();
    }

    private static String plain(BigDecimal value) {
        return value == null ? "nothing" : value.toPlainString();
    }
}
