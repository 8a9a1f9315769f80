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

    /** The same balances, whatever the decimals' scales and however zero positions are kept: what the seam audit compares. */
    public boolean agreesWith(Holdings other) {
        return cash.compareTo(other.cash) == 0 && reservedCash.compareTo(other.reservedCash) == 0
                && nonZero(positions).equals(nonZero(other.positions)) && nonZero(reservedShares).equals(nonZero(other.reservedShares));
    }

    private static Map<String, Long> nonZero(Map<String, Long> shares) {
        return shares.entrySet().stream().filter(e -> e.getValue() != 0).collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** These balances with {@code cash} and {@code shares} of {@code symbol} more held back. */
    Holdings holdingBack(BigDecimal cash, String symbol, long shares) {
        Map<String, Long> held = new java.util.HashMap<>(reservedShares);
        if (shares != 0) {
            held.merge(symbol, shares, Long::sum);
        }
        return new Holdings(this.cash, reservedCash.add(cash), positions, held);
    }

    public long availableShares(String symbol) {
        return positions.getOrDefault(symbol, 0L) - reservedShares.getOrDefault(symbol, 0L);
    }
}
