package org.brokerapp.broker.deciding;

import java.time.Duration;
import java.util.Collection;

/**
 * The accounts' side of {@link AccountOwnership}: told which customer partitions this instance
 * takes and gives up, so deciding stays apart from the accounts it decides for.
 */
public interface OwnedCustomers {

    /** Called once, by the ownership that answers for these customers from now on. */
    void ownedBy(AccountOwnership ownership);

    /** Copies of customers in newly taken partitions, should any be left: each is read again on first use. */
    void forget(Collection<Integer> partitions, int partitionCount);

    /** The partitions leave: returns once the writes in flight on their accounts ended (at most {@code max}). */
    void retire(Collection<Integer> partitions, int partitionCount, Duration max);
}
