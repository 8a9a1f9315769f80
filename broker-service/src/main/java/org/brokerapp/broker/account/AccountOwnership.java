package org.brokerapp.broker.account;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.datastax.oss.driver.api.core.CqlSession;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.brokerapp.broker.lease.DecisionLeases;
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

    /** No records: its partitions only divide the region's customers among its instances (the group's assignment). */
    public static final String TOPIC = "customers";

    private final Accounts accounts;
    private final BrokerProperties properties;
    private final DecisionLeases leases;
    private final String group;
    private volatile int partitionCount;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private volatile boolean polling;
    private final Set<Integer> assigned = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public AccountOwnership(Accounts accounts, BrokerProperties properties, CqlSession session, BrokerCql cql, InstanceUrl instance,
                            MeterRegistry registry) {
        super("account-ownership", 5);
        this.accounts = accounts;
        this.properties = properties;
        this.partitionCount = properties.events().partitions();
        this.group = group(properties.region());
        this.leases = new DecisionLeases(session, cql, group, instance.url());
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

    boolean covers(String customerId) {
        return leases.coversPartition(CustomerPartitions.of(customerId, partitionCount));
    }

    Optional<String> holderUrl(String customerId) {
        return leases.holderOf(CustomerPartitions.of(customerId, partitionCount)).map(InstanceUrl::ofHolder);
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

    private void consume() {
        Properties config = KafkaConsumers.configFor(properties, group);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<String, byte[]> kafka = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
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

    private final class Listener implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            Set<Integer> ids = ids(partitions);
            log.info("newly assigned customer partitions {}", ids.stream().sorted().toList());
            assigned.addAll(ids);
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
