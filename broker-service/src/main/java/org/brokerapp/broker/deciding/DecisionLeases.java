package org.brokerapp.broker.deciding;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.brokerapp.broker.schema.BrokerCql;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.system.InstanceUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Makes a Kafka partition assignment safe to decide on. Kafka hands a tick partition to a new
 * instance once the old one has left the group, or has been silent for the session timeout; an
 * old instance cut off from Kafka but not from Cassandra does not know yet, and must not go on
 * deciding fills and cancels while the new one starts. So each assigned partition also needs a
 * lease in {@code decision_leases}, taken with a condition ({@code IF NOT EXISTS}) and renewed
 * every {@link LeaseTiming#renewEvery} ({@code IF holder = me}, every held partition of the group in
 * one conditional batch: one Paxos round), all at LOCAL_SERIAL in this region's DC.
 *
 * <p>Timing ({@link LeaseTiming#DEFAULT}): renewed every 3 s, a lease row lives 15 s after its last
 * renewal reached Cassandra, less up to a second (TTLs count whole seconds). Its holder decides only
 * until 7 s after it <em>sent</em> its last successful renewal, and a write started by then ends
 * within the Cassandra request timeout ({@code spring.cassandra.request.timeout}, 5 s, checked at
 * start-up by {@link LeaseTiming#requireFence}): 7 + 5 &lt; 15 - 1, with a second to spare. So every
 * decision of the old holder has landed before the row lapses and a new holder can take it. Only
 * durations are compared, each on one host's clock: no clock has to agree with another. The 7 s
 * cover two renewal periods, so one failed or slow renewal does not stop the holder deciding.
 *
 * <p>One instance of this class is one holder; {@link #close()} stops renewing without releasing,
 * which is what a frozen or cut-off instance looks like to the others.
 */
@Component
public class DecisionLeases implements AutoCloseable {

    /** The timing every broker uses (see {@link LeaseTiming#DEFAULT}). */
    public static final LeaseTiming TIMING = LeaseTiming.DEFAULT;
    /** How long a lease row lives after its last renewal: a killed holder's partitions wait at most this long. */
    public static final Duration TTL = TIMING.ttl();
    /** How often the renewer wakes: renews what is due, tries again for wanted leases not held. */
    private static final Duration TICK = Duration.ofSeconds(1);
    private static final Duration RETRY_EVERY = Duration.ofMillis(500);

    private static final Logger log = LoggerFactory.getLogger(DecisionLeases.class);

    private final CqlSession session;
    private final BrokerCql cql;
    private final String group;
    private final String holder;
    private final Set<Integer> wanted = ConcurrentHashMap.newKeySet();
    private final Map<Integer, Long> validUntilNanos = new ConcurrentHashMap<>();
    /** The lease epoch of each partition held: set before the lease counts as held, so a covered symbol always has one. */
    private final Map<Integer, Long> epochs = new ConcurrentHashMap<>();
    private final Map<String, Integer> partitionOfSymbol = new ConcurrentHashMap<>();
    private final ScheduledExecutorService renewer;
    private final LeaseTiming timing;
    private volatile String lastFailure = "";
    private final Counter taken;
    private final Counter lost;
    /** When the last renewal of the held leases that Cassandra answered was sent (System.nanoTime): the next is due renewEvery later. */
    private long lastRenewalNanos = System.nanoTime();

    @Autowired
    public DecisionLeases(CqlSession session, BrokerCql cql, BrokerProperties properties, InstanceUrl instance, MeterRegistry registry) {
        this(session, cql, properties.consumerGroup(), instance.url(), TIMING, registry, properties.region());
    }

    /**
     * Leases of {@code group}'s partitions, held as {@code holderPrefix} (this instance's URL, so
     * the others of its region can hand it work) plus a name unique to this process. Its meters go
     * to a registry of its own, not exported: the ops meters count the tick partitions' leases only.
     */
    public DecisionLeases(CqlSession session, BrokerCql cql, String group, String holderPrefix) {
        this(session, cql, group, holderPrefix, TIMING);
    }

    /** As above, with a timing of its own; refused if the session's request timeout would let a write outlive a lapsed lease. */
    DecisionLeases(CqlSession session, BrokerCql cql, String group, String holderPrefix, LeaseTiming timing) {
        this(session, cql, group, holderPrefix, timing, new SimpleMeterRegistry(), group);
    }

    private DecisionLeases(CqlSession session, BrokerCql cql, String group, String holderPrefix, LeaseTiming timing, MeterRegistry registry,
                           String region) {
        this.timing = timing.requireFence(session.getContext().getConfig().getDefaultProfile().getDuration(DefaultDriverOption.REQUEST_TIMEOUT));
        // ops: leases held, and how often they change hands (churn: alert DecisionLeaseChurn)
        this.taken = Counter.builder("broker.decision.leases").description("decision leases taken or lost").tag("region", region).tag("event", "taken").register(registry);
        this.lost = Counter.builder("broker.decision.leases").description("decision leases taken or lost").tag("region", region).tag("event", "lost").register(registry);
        Gauge.builder("broker.decision.leases.held", validUntilNanos, Map::size).description("tick partitions whose decision lease this instance holds")
                .tag("region", region).register(registry);
        this.session = session;
        this.cql = cql;
        this.group = group;
        this.holder = holderPrefix + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID().toString().substring(0, 8);
        this.renewer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "decision-leases");
            t.setDaemon(true);
            return t;
        });
        // a thread of its own: nothing else can delay the renewal that keeps this instance deciding
        renewer.scheduleWithFixedDelay(this::renewAll, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    public String holder() {
        return holder;
    }

    /**
     * Takes the leases of newly assigned partitions, waiting up to {@code patience} for a previous
     * holder's to lapse; after that the renewer keeps trying, and their symbols wait undecided.
     *
     * @return whether every lease was taken within {@code patience}
     */
    public boolean acquire(Map<Integer, Set<String>> symbolsByPartition, Duration patience) {
        symbolsByPartition.forEach((partition, symbols) -> {
            wanted.add(partition);
            symbols.forEach(symbol -> partitionOfSymbol.put(symbol, partition));
        });
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            symbolsByPartition.keySet().stream().filter(p -> !validUntilNanos.containsKey(p)).forEach(this::tryTake);
            if (validUntilNanos.keySet().containsAll(symbolsByPartition.keySet())) {
                return true;
            }
            if (System.nanoTime() - deadline > 0) {
                log.warn("leases of {} partitions {} still held by another instance after {}; their decisions wait", group,
                        symbolsByPartition.keySet().stream().filter(p -> !validUntilNanos.containsKey(p)).sorted().toList(), patience);
                return false;
            }
            sleep(RETRY_EVERY);
        }
    }

    /** Gives leases back, so the partitions' next holder need not wait for them to lapse. */
    public synchronized void release(Collection<Integer> partitions) {
        for (Integer partition : partitions) {
            wanted.remove(partition);
            validUntilNanos.remove(partition);
            epochs.remove(partition);
            partitionOfSymbol.values().removeIf(partition::equals);
            try {
                session.execute(localSerial(cql.releaseDecisionLease.bind(group, partition, holder)));
            } catch (RuntimeException e) {
                log.warn("lease of {} partition {} not released ({}); it lapses within {}", group, partition, e.getMessage(), timing.ttl());
            }
        }
    }

    /** Whether this instance may decide on the symbol's orders now: it holds its partition's lease, renewed lately. */
    public boolean covers(String symbol) {
        Integer partition = partitionOfSymbol.get(symbol);
        Long until = partition == null ? null : validUntilNanos.get(partition);
        return until != null && until - System.nanoTime() > 0;
    }

    /**
     * The epoch under which this instance decides on the symbol's orders, while it {@link #covers}
     * it. Every holder of a partition's lease raises its epoch before deciding, so a later holder's
     * epoch is larger than every earlier one's: a write carrying it outranks theirs (see
     * {@code core.DecisionFence}).
     */
    public OptionalLong epochOf(String symbol) {
        Integer partition = partitionOfSymbol.get(symbol);
        Long epoch = partition == null ? null : epochs.get(partition);
        return epoch != null && coversPartition(partition) ? OptionalLong.of(epoch) : OptionalLong.empty();
    }

    /** Whether this instance holds the partition's lease, renewed lately. */
    public boolean coversPartition(int partition) {
        Long until = validUntilNanos.get(partition);
        return until != null && until - System.nanoTime() > 0;
    }

    /** The holder of a partition's lease as Cassandra has it now (one read), if any. */
    public Optional<String> holderOf(int partition) {
        Row row = session.execute(cql.selectDecisionLease.bind(group, partition)).one();
        return row == null || row.isNull("holder") ? Optional.empty() : Optional.of(row.getString("holder"));
    }

    private synchronized void tryTake(int partition) {
        if (!wanted.contains(partition)) {
            return;
        }
        long sent = System.nanoTime();
        try {
            ResultSet rs = session.execute(localSerial(cql.takeDecisionLease.bind(group, partition, holder, timing.ttlSeconds())));
            boolean applied = rs.wasApplied();
            Row current = rs.one();
            if (applied || (current != null && holder.equals(current.getString("holder")) && renewOne(partition))) {
                // a lease taken afresh gets a new epoch; one found still ours (nobody held it since) keeps the epoch it had
                long epoch = applied || !epochs.containsKey(partition) ? raiseEpoch(partition) : epochs.get(partition);
                epochs.put(partition, epoch);
                validUntilNanos.put(partition, timing.validUntil(sent));
                taken.increment();
                log.info("lease of {} partition {} taken, epoch {}", group, partition, epoch);
            }
        } catch (RuntimeException e) {
            String reason = e.getClass().getSimpleName() + ": " + e.getMessage();
            if (!reason.equals(lastFailure)) {
                log.warn("lease of {} partition {} not taken now ({}); trying again", group, partition, reason);
                lastFailure = reason;
            }
        }
    }

    /**
     * Every {@link #TICK}: renews every held lease in one conditional batch (one Paxos round) when
     * {@link LeaseTiming#renewEvery} has passed since the last renewal; takes wanted ones not yet held.
     */
    private synchronized void renewAll() {
        try {
            List<Integer> held = validUntilNanos.keySet().stream().filter(wanted::contains).sorted().toList();
            if (!held.isEmpty() && timing.renewalDue(lastRenewalNanos, System.nanoTime())) {
                long sent = System.nanoTime();
                BatchStatement batch = BatchStatement.newInstance(DefaultBatchType.UNLOGGED,
                        held.stream().<BatchableStatement<?>>map(this::renewal).toList());
                boolean applied = session.execute(localSerial(batch)).wasApplied();
                // renewed (or found out): the next is due renewEvery later; after an error, the next tick tries again
                lastRenewalNanos = sent;
                if (applied) {
                    held.forEach(p -> validUntilNanos.put(p, timing.validUntil(sent)));
                } else {
                    // some lease is not ours any more: find which, one by one
                    for (Integer partition : held) {
                        long each = System.nanoTime();
                        if (renewOne(partition)) {
                            validUntilNanos.put(partition, timing.validUntil(each));
                        } else {
                            validUntilNanos.remove(partition);
                            epochs.remove(partition);
                            lost.increment();
                            log.error("lease of {} partition {} was taken by another instance; not deciding for it", group, partition);
                        }
                    }
                }
            }
            wanted.stream().filter(p -> !validUntilNanos.containsKey(p)).forEach(this::tryTake);
        } catch (RuntimeException e) {
            // the leases stay valid until validFor after the last successful renewal, then lapse by themselves
            log.warn("leases of {} not renewed: {}", group, e.getMessage());
        }
    }

    /**
     * Raises the partition's epoch by one, with a condition on the value read: only a lease holder
     * calls this, and there is one at a time, so the condition fails only if a previous holder's
     * raise reached Cassandra after all; then the next value is tried.
     */
    private long raiseEpoch(int partition) {
        for (int attempt = 0; attempt < 5; attempt++) {
            Row row = session.execute(cql.selectDecisionEpoch.bind(group, partition).setConsistencyLevel(ConsistencyLevel.LOCAL_SERIAL)).one();
            if (row == null) {
                if (session.execute(localSerial(cql.firstDecisionEpoch.bind(group, partition))).wasApplied()) {
                    return 1;
                }
                continue;
            }
            long next = row.getLong("epoch") + 1;
            if (session.execute(localSerial(cql.nextDecisionEpoch.bind(next, group, partition, next - 1))).wasApplied()) {
                return next;
            }
        }
        throw new IllegalStateException("the epoch of " + group + " partition " + partition + " kept changing under its lease holder");
    }

    private BoundStatement renewal(int partition) {
        return cql.renewDecisionLease.bind(timing.ttlSeconds(), holder, group, partition, holder);
    }

    private boolean renewOne(int partition) {
        return session.execute(localSerial(renewal(partition))).wasApplied();
    }

    /** The lease is a fence within this region: its conditions run Paxos among this DC's replicas only. */
    private static <S extends Statement<S>> S localSerial(S statement) {
        return statement.setConsistencyLevel(ConsistencyLevel.LOCAL_QUORUM).setSerialConsistencyLevel(ConsistencyLevel.LOCAL_SERIAL);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops renewing; the leases lapse by themselves (release them first for a prompt handover). */
    @Override
    public void close() {
        renewer.shutdownNow();
    }
}
