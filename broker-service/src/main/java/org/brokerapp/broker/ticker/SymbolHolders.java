package org.brokerapp.broker.ticker;

import java.util.Optional;
import java.util.OptionalInt;

import org.brokerapp.broker.deciding.DecisionLeases;
import org.brokerapp.broker.system.InstanceUrl;
import org.springframework.stereotype.Component;

/**
 * Which instance of this region decides on a symbol now: the holder of its tick partition's lease,
 * as Cassandra has it (one read). Work for a symbol that another instance decides on is handed to
 * that one: relayed orders to rest, and routed MARKET orders to execute, so each is decided once.
 */
@Component
public class SymbolHolders {

    private final TickConsumer ticks;
    private final DecisionLeases leases;
    private final String self;

    public SymbolHolders(TickConsumer ticks, DecisionLeases leases, InstanceUrl instance) {
        this.ticks = ticks;
        this.leases = leases;
        this.self = instance.url();
    }

    /** The base URL of another instance holding the symbol; empty when none does, or this one does, or the topic's layout is not known yet. */
    public Optional<String> otherHolderOf(String symbol) {
        OptionalInt partition = ticks.partitionOfSymbol(symbol);
        if (partition.isEmpty()) {
            return Optional.empty();
        }
        return leases.holderOf(partition.getAsInt()).map(InstanceUrl::ofHolder).filter(holder -> !holder.equals(self));
    }
}
