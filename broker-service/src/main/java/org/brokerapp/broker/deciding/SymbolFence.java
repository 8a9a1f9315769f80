package org.brokerapp.broker.deciding;

import java.util.Optional;
import java.util.OptionalLong;

import org.brokerapp.broker.core.DecisionFence;
import org.brokerapp.regions.SymbolUniverse;
import org.springframework.stereotype.Component;

/**
 * The one answer to "may this instance decide on a symbol's orders now, and under which fence?".
 * A decision passes two fences: this region matches the symbol's exchange ({@link
 * ExchangeOwnership}, moved between regions by failover) and this instance holds the decision lease
 * of the symbol's tick partition ({@link DecisionLeases}, moved between the region's instances by
 * Kafka rebalances). Each has an epoch; together they are the {@link DecisionFence} every decision
 * write carries. The matcher asks before it decides and the writer asks again before every write
 * and retry, and before it reports: a decision whose fence moved on the way is never reported, and
 * a write it made loses to the next holder's.
 */
@Component
public class SymbolFence {

    private final ExchangeOwnership exchanges;
    private final DecisionLeases leases;
    private final SymbolUniverse universe;

    public SymbolFence(ExchangeOwnership exchanges, DecisionLeases leases, SymbolUniverse universe) {
        this.exchanges = exchanges;
        this.leases = leases;
        this.universe = universe;
    }

    public boolean mayDecide(String symbol) {
        return fenceOf(symbol).isPresent();
    }

    /** The fence this instance decides on the symbol under now; empty if it may not decide on it. */
    public Optional<DecisionFence> fenceOf(String symbol) {
        Optional<String> listedOn = universe.find(symbol).map(listing -> listing.exchange());
        if (listedOn.isEmpty()) {
            return Optional.empty();
        }
        String exchange = listedOn.get();
        long exchangeEpoch = exchanges.ownerOf(exchange).epoch();
        OptionalLong leaseEpoch = leases.epochOf(symbol);
        // the epoch read before the check and after it: a failover in between yields no fence rather than a mixed one
        if (!exchanges.holds(exchange) || leaseEpoch.isEmpty() || exchanges.ownerOf(exchange).epoch() != exchangeEpoch) {
            return Optional.empty();
        }
        return Optional.of(new DecisionFence(exchangeEpoch, leaseEpoch.getAsLong()));
    }
}
