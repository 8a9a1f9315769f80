package org.brokerapp.broker.ops;

import org.brokerapp.broker.account.AccountOwnership;
import org.brokerapp.broker.matching.MatchingService;
import org.brokerapp.broker.relay.EventRelay;
import org.brokerapp.broker.ticker.TickConsumer;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Up once this broker holds symbols to match (Kafka assigned it tick partitions) and every loop of
 * the order path runs: the tick consumer, the customer ownership group and the relay. Each loop
 * starts over by itself after a failure; until it does, this instance is not ready.
 */
@Component("matching")
class MatchingHealth implements HealthIndicator {

    private final MatchingService matcher;
    private final TickConsumer ticks;
    private final AccountOwnership accounts;
    private final EventRelay relay;

    MatchingHealth(MatchingService matcher, TickConsumer ticks, AccountOwnership accounts, EventRelay relay) {
        this.matcher = matcher;
        this.ticks = ticks;
        this.accounts = accounts;
        this.relay = relay;
    }

    @Override
    public Health health() {
        int symbols = matcher.ownedSymbols();
        boolean up = matcher.isRunning() && symbols > 0 && ticks.isPolling() && accounts.isPolling() && relay.isRelaying();
        return (up ? Health.up() : Health.outOfService()).withDetail("symbols", symbols).withDetail("tickConsumer", ticks.isPolling())
                .withDetail("accountOwnership", accounts.isPolling()).withDetail("relay", relay.isRelaying()).build();
    }
}
