package org.brokerapp.broker.ops;

import org.brokerapp.broker.deciding.AccountOwnership;
import org.brokerapp.broker.matching.MatchingService;
import org.brokerapp.broker.relay.EventRelay;
import org.brokerapp.broker.ticker.TickConsumer;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Up once this broker holds symbols to match (Kafka assigned it tick partitions) and the leases of
 * the customers assigned to it, and while every loop of the order path runs: the tick consumer, the
 * customer ownership group and the relay. Each loop starts over by itself after a failure; until it
 * does, this instance is not ready.
 *
 * <p>A rebalance after start-up does not take readiness away: partitions moved here wait for the
 * previous holder's lease to lapse (up to its TTL), and meanwhile only their symbols and customers
 * are refused (503, retry-safe). Were readiness to drop then, a load balancer would take the
 * instance out while it is taking over from a dead one, which is when the region needs it most: the
 * broker-kill drill with two instances showed a survivor's 22 s of "not ready" become 241 refused
 * connections, the whole region's traffic.
 */
@Component("matching")
class MatchingHealth implements HealthIndicator {

    private final MatchingService matcher;
    private final TickConsumer ticks;
    private final AccountOwnership accounts;
    private final EventRelay relay;
    private final ServingLatch readiness = new ServingLatch();

    MatchingHealth(MatchingService matcher, TickConsumer ticks, AccountOwnership accounts, EventRelay relay) {
        this.matcher = matcher;
        this.ticks = ticks;
        this.accounts = accounts;
        this.relay = relay;
    }

    @Override
    public Health health() {
        int symbols = matcher.ownedSymbols();
        boolean loops = matcher.isRunning() && ticks.isPolling() && accounts.isPolling() && relay.isRelaying();
        boolean customerLeases = accounts.holdsEveryAssignedLease();
        boolean holding = symbols > 0 && customerLeases;
        return (readiness.update(loops, holding) ? Health.up() : Health.outOfService()).withDetail("symbols", symbols).withDetail("tickConsumer", ticks.isPolling())
                .withDetail("accountOwnership", accounts.isPolling()).withDetail("customerLeases", customerLeases)
                .withDetail("relay", relay.isRelaying()).build();
    }
}
