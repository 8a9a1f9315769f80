package org.brokerapp.broker.account;

import java.math.BigDecimal;
import java.util.Map;

/**
 * A customer's balances as the ledger partition folds them.
 *
 * @param cash           opening cash minus filled buys plus filled sells
 * @param reservedCash   held back by open buys
 * @param positions      shares owned per symbol
 * @param reservedShares held back by open sells, per symbol
 */
public record Holdings(BigDecimal cash, BigDecimal reservedCash, Map<String, Long> positions, Map<String, Long> reservedShares) {

    public Holdings {
        positions = Map.copyOf(positions);
        reservedShares = Map.copyOf(reservedShares);
    }

    public BigDecimal availableCash() {
        return cash.subtract(reservedCash);
    }

    public long availableShares(String symbol) {
        return positions.getOrDefault(symbol, 0L) - reservedShares.getOrDefault(symbol, 0L);
    }
}
