package org.brokerapp.broker.deciding;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import org.brokerapp.broker.schema.BrokerCql;
import org.springframework.stereotype.Repository;

/**
 * The exchange_owners table. Read at LOCAL_QUORUM every second by every broker, one partition per
 * exchange: a range scan of the table would wait on every node whose ranges it needs, a node just
 * killed and not yet marked down included (the cassandra-kill drill saw two 5 s timeouts in a row
 * lapse a region's hold on its own exchanges), while a single-partition read's coordinator asks a
 * third replica when one is slow (speculative retry, RF 3). Changed only by a
 * condition run across all DCs (SERIAL) and committed in each DC (EACH_QUORUM): a change that
 * succeeds is in the old owner's DC before it is acknowledged, and one that cannot reach every DC
 * fails rather than leave two regions each believing it matches the exchange.
 */
@Repository
class ExchangeOwners {

    /** Who matches an exchange; epoch 0 is the implicit row of an exchange that never moved (its home). */
    public record Owner(String exchange, String region, long epoch, Instant changedAt) {
    }

    /** Well under the region's hold on its exchanges ({@code broker.failover.lease}, 10 s): one slow read must not lapse it. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

    private final CqlSession session;
    private final BrokerCql cql;

    public ExchangeOwners(CqlSession session, BrokerCql cql) {
        this.session = session;
        this.cql = cql;
    }

    /**
     * The rows of {@code exchanges}, read at once; an exchange without a row has never moved. Each read may take
     * {@link #READ_TIMEOUT}: a late one fails the whole reading, and the caller reads again a second later.
     */
    public Map<String, Owner> read(Collection<String> exchanges) {
        List<CompletableFuture<AsyncResultSet>> reads = exchanges.stream()
                .map(exchange -> session.executeAsync(cql.selectExchangeOwner.bind(exchange).setTimeout(READ_TIMEOUT)).toCompletableFuture())
                .toList();
        Map<String, Owner> owners = new HashMap<>();
        for (CompletableFuture<AsyncResultSet> read : reads) {
            Row r;
            try {
                r = read.join().one();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
            if (r != null) {
                owners.put(r.getString("exchange"), new Owner(r.getString("exchange"), r.getString("owner"), r.getLong("epoch"), r.getInstant("changed_at")));
            }
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
