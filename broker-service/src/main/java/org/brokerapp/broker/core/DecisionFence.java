package org.brokerapp.broker.core;

/**
 * The epochs under which a decider holds a symbol: its region's {@code exchangeEpoch} (moved by
 * failover and failback, {@code exchange_owners}) and its instance's {@code leaseEpoch} (moved by
 * every change of the tick partition's decision lease, {@code decision_epochs}). Both only grow,
 * so {@link #token()} orders every decider a symbol ever had: a later holder's token is larger.
 *
 * <p>Every decision write carries the token twice: as a cell the ledger's read compares (a fill
 * against a cancel) and added to the write's timestamp (a fill against a fill), so a late write
 * from a lapsed holder never overrides a newer holder's decision, whatever the clocks say.
 */
public record DecisionFence(long exchangeEpoch, long leaseEpoch) {

    /** Lease epochs live in the token's low 32 bits. */
    private static final long LEASE_EPOCHS = 1L << 32;

    public DecisionFence {
        if (exchangeEpoch < 0 || leaseEpoch < 1 || leaseEpoch >= LEASE_EPOCHS) {
            throw new IllegalArgumentException("no such fence: exchange epoch " + exchangeEpoch + ", lease epoch " + leaseEpoch);
        }
    }

    /** Exchange epoch first, then lease epoch: one number that grows with every change of decider. */
    public long token() {
        return exchangeEpoch * LEASE_EPOCHS + leaseEpoch;
    }
}
