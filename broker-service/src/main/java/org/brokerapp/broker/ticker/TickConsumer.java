package org.brokerapp.broker.ticker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.brokerapp.broker.deciding.DecisionLeases;
import org.brokerapp.broker.matching.MatchingService;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.system.KafkaConsumers;
import org.brokerapp.broker.system.LoopThread;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.MalformedTickException;
import org.brokerapp.ticker.Tick;
import org.brokerapp.ticker.TickCodec;
import org.brokerapp.ticker.Topics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Reads this region's tick topic and has the matcher match each tick, on this loop's thread when
 * the matcher is free (see MatchingService#offer). The poll loop waits on no database I/O: when the
 * matcher's bounded queue is full the loop pauses its partitions, waits for room, and resumes. Partitions decide ownership: the symbols whose key hashes to this instance's
 * partitions are the ones it matches, so two instances of a region split the symbols between them
 * and a rebalance moves whole symbols (their orders are rebuilt from Cassandra on assignment).
 * Ticks are delivered at least once; duplicates and stale sequence numbers are counted and skipped.
 */
@Component
public class TickConsumer extends LoopThread {

    private static final Logger log = LoggerFactory.getLogger(TickConsumer.class);

    private final MatchingService matcher;
    private final DecisionLeases leases;
    private final BrokerMetrics metrics;
    private final BrokerProperties properties;
    private final TickGuard guard;
    private final List<String> allSymbols;
    private final Set<String> malformedSeen = ConcurrentHashMap.newKeySet();
    private volatile KafkaConsumer<String, byte[]> consumer;
    private volatile int partitionCount;
    private volatile boolean polling;

    public TickConsumer(MatchingService matcher, DecisionLeases leases, BrokerMetrics metrics, BrokerProperties properties, SymbolUniverse universe, TickGuard guard) {
        super("tick-consumer", 10);
        this.matcher = matcher;
        this.leases = leases;
        this.metrics = metrics;
        this.properties = properties;
        this.guard = guard;
        // the matcher keeps those of the exchanges this region holds: its own, and any it adopted
        this.allSymbols = universe.listings().stream().map(l -> l.symbol()).toList();
    }

    @Override
    protected void loop() {
        // a failure (Kafka away, a rebuild's Cassandra timeout in a rebalance callback) closes the
        // consumer, which gives the partitions back, and a new one joins
        startOverOnFailure(this::consume);
    }

    /** Whether the poll loop runs (readiness: while it does not, no tick is matched here). */
    public boolean isPolling() {
        return polling;
    }

    private void consume() throws InterruptedException {
        Properties config = KafkaConsumers.configFor(properties, properties.consumerGroup());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "true");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        // notice the ticks topic soon after the feed creates it
        config.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "2000");
        try (KafkaConsumer<String, byte[]> kafka = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
             KafkaClientMetrics clientMeters = KafkaConsumers.metered(kafka, metrics.registry())) {
            consumer = kafka;
            kafka.subscribe(List.of(Topics.TICKS), new Ownership(kafka));
            polling = true;
            while (isRunning()) {
                for (ConsumerRecord<String, byte[]> record : kafka.poll(Duration.ofMillis(100))) {
                    handOff(kafka, record);
                }
            }
        } finally {
            polling = false;
        }
    }

    private void handOff(KafkaConsumer<String, byte[]> kafka, ConsumerRecord<String, byte[]> record) throws InterruptedException {
        long received = System.nanoTime();
        Tick tick;
        try {
            tick = TickCodec.decode(record.value());
        } catch (MalformedTickException e) {
            metrics.tick("malformed");
            guard.malformed(record, e.getMessage());
            if (malformedSeen.add(e.getMessage())) {
                log.warn("skipping malformed tick at {}-{} offset {}: {} (logged once per kind)", record.topic(), record.partition(), record.offset(), e.getMessage());
            }
            return;
        }
        TickGuard.Verdict verdict = guard.admit(record, tick);
        if (verdict instanceof TickGuard.Duplicate) {
            metrics.tick("duplicate");
        }
        if (!verdict.moves()) {
            return;
        }
        if (verdict instanceof TickGuard.Restarted) {
            metrics.tick("feed.restart");
        }
        metrics.tick("accepted");
        if (!matcher.offer(tick, received)) {
            Set<TopicPartition> assigned = kafka.assignment();
            kafka.pause(assigned);
            matcher.put(tick, received);
            kafka.resume(assigned);
        }
    }

    /** Keeps the matcher's symbols equal to the symbols of the assigned partitions. */
    private final class Ownership implements ConsumerRebalanceListener {

        private final KafkaConsumer<String, byte[]> kafka;

        Ownership(KafkaConsumer<String, byte[]> kafka) {
            this.kafka = kafka;
        }

        /** The matcher first finishes its decisions on the symbols (see MatchingService#disown), then the leases go. */
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            matcher.disown(symbolsOf(ids(partitions)));
            leases.release(ids(partitions));
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            onPartitionsRevoked(partitions);
        }

        /** The leases first, so that no decision is taken on a symbol before this instance holds its partition's lease. */
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            log.info("newly assigned tick partitions {}", ids(partitions).stream().sorted().toList());
            Map<Integer, Set<String>> symbols = new HashMap<>();
            for (Integer partition : ids(partitions)) {
                symbols.put(partition, symbolsOf(List.of(partition)));
            }
            leases.acquire(symbols, DecisionLeases.TTL.multipliedBy(2));
            guard.forget(symbolsOf(ids(partitions)));
            matcher.own(symbolsOf(ids(partitions)));
        }

        private Set<String> symbolsOf(Collection<Integer> partitions) {
            if (partitions.isEmpty()) {
                return Set.of();
            }
            int count = kafka.partitionsFor(Topics.TICKS).size();
            partitionCount = count;
            return allSymbols.stream().filter(s -> partitions.contains(partitionOf(s, count))).collect(Collectors.toSet());
        }

        private Set<Integer> ids(Collection<TopicPartition> partitions) {
            return partitions.stream().map(TopicPartition::partition).collect(Collectors.toSet());
        }
    }

    /** Kafka's default partitioner for a String key, so ownership follows the feed's keying. */
    public static int partitionOf(String symbol, int partitions) {
        return Utils.toPositive(Utils.murmur2(symbol.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /** The tick partition of a symbol, once this instance has seen the topic's layout. */
    public java.util.OptionalInt partitionOfSymbol(String symbol) {
        int count = partitionCount;
        return count == 0 ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(partitionOf(symbol, count));
    }

    @Override
    protected void wake() {
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }
}
