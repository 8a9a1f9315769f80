package org.brokerapp.loadtest.workload;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import org.brokerapp.loadtest.deployment.CqlEndpoint;
import org.brokerapp.loadtest.measure.Counters;
import org.brokerapp.loadtest.measure.ErrorKinds;
import org.brokerapp.loadtest.measure.LatencyBook;
import org.brokerapp.loadtest.measure.Measures;
import org.brokerapp.regions.RegionsModel;

/**
 * The floor: a bare LOCAL_QUORUM insert of ~100 bytes into a table of the same multi-DC replication
 * as the brokers' keyspace, in one region's DC, timed from its intended start while the load runs.
 * Every other latency is also reported as a ratio to it: the broker's work per fill is several such
 * writes (and Paxos rounds), so a ratio near 1 would mean no overhead at all.
 */
public final class FloorWriter implements AutoCloseable {

    static final String KEYSPACE = "bench";
    private static final String PAYLOAD = "x".repeat(100);

    private final CqlSession session;
    private final PreparedStatement insert;
    private final String measure;
    private final LatencyBook latencies;
    private final Counters counters;
    private final ErrorKinds errors;
    private final String region;
    private final AtomicLong ids = new AtomicLong(System.currentTimeMillis() * 1000);

    public FloorWriter(String region, CqlEndpoint endpoint, RegionsModel regions, LatencyBook latencies, Counters counters, ErrorKinds errors) {
        this.region = region;
        this.measure = Measures.floor(region);
        this.latencies = latencies;
        this.counters = counters;
        this.errors = errors;
        this.session = endpoint.openSession();
        try {
            session.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS " + KEYSPACE + " WITH replication = "
                    + regions.networkTopologyReplication()).setTimeout(Duration.ofSeconds(60)));
            session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + KEYSPACE
                    + ".bare_writes (id bigint PRIMARY KEY, at timestamp, payload text)").setTimeout(Duration.ofSeconds(60)));
            insert = prepareOnceTheSchemaHasSpread();
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /** A busy cluster can answer the CREATE before every node of this DC knows the table: retry for up to 30 s. */
    private PreparedStatement prepareOnceTheSchemaHasSpread() {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                return session.prepare(SimpleStatement.newInstance("INSERT INTO " + KEYSPACE + ".bare_writes (id, at, payload) VALUES (?, ?, ?)")
                        // idempotent, as the brokers' stamped writes are: the driver retries it on another replica if its node dies
                        .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM).setIdempotent(true));
            } catch (InvalidQueryException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                session.checkSchemaAgreement();
                org.brokerapp.loadtest.deployment.BrokerProcesses.sleep(1_000);
            }
        }
    }

    /** Called from the floor loop; does not block. */
    public void write(long intendedStartNanos) {
        session.executeAsync(insert.bind(ids.incrementAndGet(), Instant.now(), PAYLOAD)).whenComplete((rs, e) -> {
            if (e != null) {
                counters.floorFailed.increment();
                errors.count("floor write " + region + ": " + ErrorKinds.ofThrowable(e));
            } else {
                counters.floorWrites.increment();
                latencies.record(measure, intendedStartNanos);
            }
        });
    }

    @Override
    public void close() {
        session.close();
    }
}
