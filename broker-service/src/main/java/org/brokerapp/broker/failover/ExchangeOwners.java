package org.brokerapp.broker.failover;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import org.brokerapp.broker.schema.BrokerCql;
import org.springframework.stereotype.Repository;

/**
 * The exchange_owners table. Read at LOCAL_QUORUM every second by every broker; changed only by a
 * condition run across all DCs (SERIAL) and committed in each DC (EACH_QUORUM): a change that
 * succeeds is in the old owner's DC before it is acknowledged, and one that cannot reach every DC
 * fails rather than leave two regions each believing it matches the exchange.
 */
@Repository
class ExchangeOwners {

    /** Who matches an exchange; epoch 0 is the implicit row of an exchange that never moved (its home). */
    public record Owner(String exchange, String region, long epoch, Instant changedAt) {
    }

    private final CqlSession session;
    private final BrokerCql cql;

    public ExchangeOwners(CqlSession session, BrokerCql cql) {
        this.session = session;
        this.cql = cql;
    }

    public Map<String, Owner> readAll() {
        Map<String, Owner> owners = new HashMap<>();
        for (Row r : session.execute(cql.selectExchangeOwners.bind())) {
            owners.put(r.getString("exchange"), new Owner(r.getString("exchange"), r.getString("owner"), r.getLong("epoch"), r.getInstant("changed_at")));
        }
        return owners;
    }

    /** Moves the exchange from {@code current} to {@code to}; false if someone else moved it since {@code current} was read. */
    public boolean move(Owner current, String to, Instant at, String by) {
        BoundStatement statement = current.epoch() == 0
                ? cql.claimUnownedExchange.bind(current.exchange(), to, at, by)
                : cql.moveExchange.bind(to, current.epoch() + 1, at, by, current.exchange(), current.region(), current.epoch());
        return session.execute(statement.setSerialConsistencyLevel(ConsistencyLevel.SERIAL).setConsistencyLevel(ConsistencyLevel.EACH_QUORUM))
                .wasApplied();
    }
}
