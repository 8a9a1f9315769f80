package org.brokerapp.broker.system;

import org.brokerapp.broker.matching.MatchingService;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/** Up once this broker holds symbols to match, i.e. Kafka assigned it tick partitions. */
@Component("matching")
class MatchingHealth implements HealthIndicator {

    private final MatchingService matcher;

    MatchingHealth(MatchingService matcher) {
        this.matcher = matcher;
    }

    @Override
    public Health health() {
        int symbols = matcher.ownedSymbols();
        return (matcher.isRunning() && symbols > 0 ? Health.up() : Health.outOfService()).withDetail("symbols", symbols).build();
    }
}
