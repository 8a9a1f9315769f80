package org.brokerapp.broker.matching;

import org.brokerapp.broker.failover.ExchangeOwnership;
import org.brokerapp.broker.lease.DecisionLeases;
import org.springframework.stereotype.Component;

/**
 * The one answer to "may this instance decide on a symbol's orders now?". A decision passes two
 * fences: this region matches the symbol's exchange ({@link ExchangeOwnership}, moved between
 * regions by failover) and this instance holds the decision lease of the symbol's tick partition
 * ({@link DecisionLeases}, moved between the region's instances by Kafka rebalances). The matcher
 * asks before it decides and the writer asks again before every write and retry, so a decision
 * that loses either fence on the way is abandoned, never written.
 */
@Component
class SymbolFence {

    private final ExchangeOwnership exchanges;
    private final DecisionLeases leases;

    SymbolFence(ExchangeOwnership exchanges, DecisionLeases leases) {
        this.exchanges = exchanges;
        this.leases = leases;
    }

    boolean mayDecide(String symbol) {
        return exchanges.holdsSymbol(symbol) && leases.covers(symbol);
    }
}
