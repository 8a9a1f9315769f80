package org.brokerapp.broker.deciding;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.datastax.oss.driver.api.core.CqlSession;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.brokerapp.broker.schema.BrokerCql;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.system.InstanceUrl;
import org.brokerapp.broker.system.KafkaConsumers;
import org.brokerapp.broker.system.LoopThread;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Divides the customers homed in this region among its broker instances, as tick partitions divide
 * the symbols: the instances form a consumer group on the record-less {@code customers} topic, and
 * the partitions Kafka assigns to an instance are the customers it owns, each fenced by a lease
 * ({@link DecisionLeases}, group {@code accounts-<region>}), so an instance that lost a partition
 * without noticing stops placing for its customers before the next owner starts. A revocation
 * returns only once the placements in flight on the partition's accounts have ended.
 */
@Component
public class AccountOwnership extends LoopThread {

    private static final Logger log = LoggerFactory.getLogger(AccountOwnership.class);
    private static final Duration HANDOVER_WAIT = Duration.ofSeconds(30);
    /** The longest a starting instance waits for {@link #joinOnlyWhen}'s condition before it joins anyway. */
    static final Duration JOIN_WAIT = Duration.ofSeconds(60);

    /** No records: its partitions only divide the region's customers among its instances (the group's assignment). */
    public static final String TOPIC = "customers";

    private final OwnedCustomers accounts;
    private final BrokerProperties properties;
    private final DecisionLeases leases;
    private final MeterRegistry registry;
    private final String group;
    private final String self;
    private volatile int partitionCount;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private volatile boolean polling;
    private final Set<Integer> assigned = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile BooleanSupplier joinable = () -> true;

    public AccountOwnership(OwnedCustomers accounts, BrokerProperties properties, CqlSession session, BrokerCql cql, InstanceUrl instance,
                            MeterRegistry registry) {
        super("account-ownership", 5);
        this.accounts = accounts;
        this.properties = properties;
        this.partitionCount = properties.events().partitions();
        this.group = group(properties.region());
        this.self = instance.url();
        this.registry = registry;
        this.leases = new DecisionLeases(session, cql, group, self);
        accounts.ownedBy(this);
        // ops and the broker-kill drill: how many of the region's customer partitions this instance decides for
        Gauge.builder("broker.account.leases.held", assigned, a -> a.stream().filter(leases::coversPartition).count())
                .description("customer partitions this instance is assigned and holds the lease of").tag("region", properties.region())
                .register(registry);
    }

    /** The consumer group of a region's account owners. */
    public static String group(String region) {
        return "accounts-" + region;
    }

    public boolean covers(String customerId) {
        return leases.coversPartition(CustomerPartitions.of(customerId, partitionCount));
    }

    /** The base URL of the other instance of this region holding the customer's lease; empty if none does, or this one does. */
    public Optional<String> holderUrl(String customerId) {
        return leases.holderOf(CustomerPartitions.of(customerId, partitionCount)).map(InstanceUrl::ofHolder).filter(holder -> !holder.equals(self));
    }

    /**
     * Joins the region's account owners only once {@code condition} holds (or {@link #JOIN_WAIT} has
     * passed): an instance that takes customers while it is still starting makes them wait for it,
     * since the other instances forward their placements to it (the broker-kill drill: 26 refusals as
     * a returning instance took its customers back 47 s before it was ready).
     */
    public void joinOnlyWhen(BooleanSupplier condition) {
        this.joinable = condition;
    }

    /** Whether the group's poll loop runs. */
    public boolean isPolling() {
        return polling;
    }

    /** Whether this instance holds the lease of every customer partition assigned to it: until then some customers' placements are refused. */
    public boolean holdsEveryAssignedLease() {
        return assigned.stream().allMatch(leases::coversPartition);
    }

    @Override
    protected void loop() {
        startOverOnFailure(this::consume);
    }

    private void consume() throws InterruptedException {
        awaitJoinable();
        Properties config = KafkaConsumers.configFor(properties, group);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<String, byte[]> kafka = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
             KafkaClientMetrics meters = KafkaConsumers.metered(kafka, registry)) {
            consumer = kafka;
            int partitions = kafka.partitionsFor(TOPIC).size();
            if (partitions == 0) {
                // the topic was created a moment ago and this broker's metadata does not show it yet: a count of 0 would divide by zero
                throw new IllegalStateException("topic " + TOPIC + " has no partitions yet");
            }
            partitionCount = partitions;
            kafka.subscribe(List.of(TOPIC), new Listener());
            polling = true;
            while (isRunning()) {
                kafka.poll(Duration.ofMillis(500));
            }
        } finally {
            polling = false;
        }
    }

    /** At the first join only: a loop starting over after a failure joins again at once. */
    private void awaitJoinable() throws InterruptedException {
        long deadline = System.nanoTime() + JOIN_WAIT.toNanos();
        while (isRunning() && !joinable.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                log.warn("joining the account owners of {} although this instance is not serving yet, after {} s", properties.region(),
                        JOIN_WAIT.toSeconds());
                break;
            }
            Thread.sleep(200);
        }
        joinable = () -> true;
    }

    private final class Listener implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            Set<Integer> ids = ids(partitions);
            log.info("newly assigned customer partitions {}", ids.stream().sorted().toList());
            assigned.addAll(ids);
            accounts.forget(ids, partitionCount);
            leases.acquire(ids.stream().collect(Collectors.toMap(Function.identity(), p -> Set.of())), DecisionLeases.TTL.multipliedBy(2));
        }

        /** The accounts first (their placements in flight end), then the leases go. */
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            Set<Integer> ids = ids(partitions);
            assigned.removeAll(ids);
            accounts.retire(ids, partitionCount, HANDOVER_WAIT);
            leases.release(ids);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            onPartitionsRevoked(partitions);
        }

        private Set<Integer> ids(Collection<TopicPartition> partitions) {
            return partitions.stream().map(TopicPartition::partition).collect(Collectors.toSet());
        }
    }

    @Override
    protected void wake() {
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }

    @Override
    public void stop() {
        super.stop();
        leases.close();
    }
}
