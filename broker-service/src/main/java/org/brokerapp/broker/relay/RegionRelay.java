package org.brokerapp.broker.relay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.brokerapp.broker.events.EventRouting;
import org.brokerapp.broker.events.EventTopics;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventCodec;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.system.KafkaConsumers;
import org.brokerapp.broker.system.LoopThread;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay to one destination region: its own consumer group ({@code relay-<region>-to-<destination>}),
 * on a thread of its own, with one batch in flight per partition of {@code order-events}. A
 * customer's events share a partition (their key), so they arrive in the order they were
 * published; a batch of one partition never waits for another's round trip. The partition is
 * paused while its batch is in flight, and resumed once the destination took it: a stop-and-wait
 * relay made every event wait for the batch before it, so at 20 orders a second a fill reached a
 * customer across the WAN a whole round trip late, not one crossing ({@code docs/benchmarks}).
 */
final class RegionRelay extends LoopThread {

    private static final Logger log = LoggerFactory.getLogger(RegionRelay.class);

    private final EventRelay relay;
    private final BrokerProperties properties;
    private final String destination;
    private final OrderEventCodec codec;
    private final MeterRegistry meters;
    private final Counter relayed;
    private final Map<TopicPartition, Long> replayUntil = new ConcurrentHashMap<>();
    /** Offsets past what the destination took and this relay has not committed yet (only its own thread touches them). */
    private final Map<TopicPartition, OffsetAndMetadata> taken = new HashMap<>();
    /** The batch in flight on each partition (only the relay's thread touches it): what a delivery settles, if it is still this one. */
    private final Map<TopicPartition, Object> inFlight = new HashMap<>();
    /** Deliveries done, for the relay's thread to settle. */
    private final Queue<Delivered> delivered = new ConcurrentLinkedQueue<>();
    /** Hands batches to the destination, one per partition at most; the relay's thread only polls and settles. */
    private final ExecutorService senders;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private volatile boolean polling;

    /** A record to carry: how it is routed, and its event as published. */
    private record Carried(EventRouting routing, byte[] event) {
    }

    /** A batch the destination took ({@code took}) or that was given up as the relay stopped. */
    private record Delivered(TopicPartition partition, Object batch, OffsetAndMetadata next, int events, boolean took) {
    }

    RegionRelay(EventRelay relay, String destination, BrokerProperties properties, OrderEventCodec codec, MeterRegistry meters) {
        super("relay-to-" + destination, 20);
        this.relay = relay;
        this.destination = destination;
        this.properties = properties;
        this.codec = codec;
        this.meters = meters;
        this.relayed = Counter.builder("broker.events.relayed").tag("to", destination)
                .description("order events this region's relay delivered, by destination region").register(meters);
        AtomicInteger n = new AtomicInteger();
        this.senders = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "relay-to-" + destination + "-send-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Whether the poll loop runs (readiness: a stopped relay strands orders placed here). */
    boolean polling() {
        return polling;
    }

    @Override
    protected void loop() {
        // any failure closes the consumer and starts over from the committed offsets
        startOverOnFailure(this::relay);
        senders.shutdownNow();
    }

    @Override
    protected void wake() {
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }

    private void relay() {
        Properties config = KafkaConsumers.configFor(properties, EventRelay.group(properties.region(), destination));
        // a new group starts at the beginning: every event published before any relay ran is still carried
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "500");
        // a consumer starting over reads again from the committed offsets; a batch still in flight settles nothing now
        taken.clear();
        inFlight.clear();
        delivered.clear();
        try (KafkaConsumer<String, byte[]> kafka = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
             KafkaClientMetrics clientMeters = KafkaConsumers.metered(kafka, meters)) {
            consumer = kafka;
            kafka.subscribe(List.of(EventTopics.ORDER_EVENTS), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    // what was published before this relay took the partition may have been acted on already
                    replayUntil.putAll(unwoken(() -> kafka.endOffsets(partitions)));
                }

                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    partitions.forEach(replayUntil::remove);
                    // a batch in flight on them settles nothing: their next relay delivers it again, and it is taken once
                    partitions.forEach(inFlight::remove);
                    // what was taken since the last commit, before the partitions go (a close revokes them too)
                    commitTaken(kafka, partitions, true);
                }
            });
            polling = true;
            long interval = properties.events().relayCommitInterval().toNanos();
            long lastCommit = System.nanoTime();
            while (isRunning()) {
                ConsumerRecords<String, byte[]> records = poll(kafka);
                settle(kafka);
                if (!records.isEmpty()) {
                    carry(kafka, records);
                }
                if (!taken.isEmpty() && System.nanoTime() - lastCommit >= interval) {
                    commitTaken(kafka, Set.copyOf(taken.keySet()), false);
                    lastCommit = System.nanoTime();
                }
            }
        } finally {
            polling = false;
        }
    }

    /**
     * A poll, woken early when a delivery is done (its partition is resumed at once) or to stop; not
     * waiting at all when a delivery is done already (its wake-up may have been spent on another call).
     */
    private ConsumerRecords<String, byte[]> poll(KafkaConsumer<String, byte[]> kafka) {
        try {
            return kafka.poll(delivered.isEmpty() ? Duration.ofMillis(500) : Duration.ZERO);
        } catch (WakeupException woken) {
            if (!isRunning()) {
                throw woken;
            }
            return ConsumerRecords.empty();
        }
    }

    /** A blocking call of the consumer other than the poll, made again when a delivery's wake-up, meant for the poll, cut it short. */
    private <T> T unwoken(Supplier<T> call) {
        while (true) {
            try {
                return call.get();
            } catch (WakeupException woken) {
                if (!isRunning()) {
                    throw woken;
                }
            }
        }
    }

    /** The deliveries done since the last poll: their offsets taken, their partitions resumed. */
    private void settle(KafkaConsumer<String, byte[]> kafka) {
        for (Delivered d = delivered.poll(); d != null; d = delivered.poll()) {
            if (inFlight.get(d.partition()) != d.batch()) {
                continue; // revoked meanwhile, or from before a start-over
            }
            inFlight.remove(d.partition());
            if (d.took()) {
                taken.put(d.partition(), d.next());
                relayed.increment(d.events());
            }
            if (kafka.assignment().contains(d.partition())) {
                kafka.resume(List.of(d.partition()));
            }
        }
    }

    /**
     * Sends each partition's records for the destination as one batch, picked by their {@link EventRouting}
     * headers without decoding them, and pauses the partition until the destination took it. A partition
     * with nothing for the destination is taken at once.
     */
    private void carry(KafkaConsumer<String, byte[]> kafka, ConsumerRecords<String, byte[]> records) {
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<String, byte[]>> ofPartition = records.records(partition);
            List<Carried> batch = new ArrayList<>();
            boolean replayed = false;
            for (ConsumerRecord<String, byte[]> record : ofPartition) {
                EventRouting routing = routingOf(record);
                String to = routing == null ? null : relay.destinationOf(routing);
                if (routing != null && to == null && destination.equals(properties.region())) {
                    // not one of this system's orders (no listing, no home): passing it on would stall the relay for good
                    log.warn("no region can act on the order event at {}-{} offset {} ({} {} of {}); skipped", record.topic(), record.partition(),
                            record.offset(), routing.symbol(), routing.exchange(), routing.customerId());
                }
                if (destination.equals(to)) {
                    batch.add(new Carried(routing, record.value()));
                    replayed |= record.offset() < replayUntil.getOrDefault(partition, 0L);
                }
            }
            OffsetAndMetadata next = new OffsetAndMetadata(ofPartition.get(ofPartition.size() - 1).offset() + 1);
            if (batch.isEmpty()) {
                taken.put(partition, next);
                continue;
            }
            Object token = new Object();
            inFlight.put(partition, token);
            kafka.pause(List.of(partition));
            boolean asReplayed = replayed;
            senders.execute(() -> {
                boolean took = deliver(batch, asReplayed);
                delivered.add(new Delivered(partition, token, next, batch.size(), took));
                try {
                    kafka.wakeup();
                } catch (RuntimeException closed) {
                    // the consumer started over meanwhile: its successor settles nothing of this batch, which is delivered again
                }
            });
        }
    }

    /** From the record's headers; a record without them (published before they were written) is decoded for it. Null: not an event. */
    private EventRouting routingOf(ConsumerRecord<String, byte[]> record) {
        return EventRouting.of(record).orElseGet(() -> {
            OrderEvent event = decode(record);
            return event == null ? null : EventRouting.of(event);
        });
    }

    /** Until the destination took the batch (true) or this relay stops, a try every {@code relay-retry}. */
    private boolean deliver(List<Carried> batch, boolean replayed) {
        List<Carried> pending = batch;
        while (isRunning()) {
            if (pending.isEmpty() || relay.handOver(destination, pending.stream().map(Carried::event).toList(), replayed)) {
                return true;
            }
            try {
                Thread.sleep(properties.events().relayRetry().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            // an exchange may have moved meanwhile: its new owner rebuilt its orders from open_orders
            pending = pending.stream().filter(c -> destination.equals(relay.destinationOf(c.routing()))).toList();
        }
        return false;
    }

    private OrderEvent decode(ConsumerRecord<String, byte[]> record) {
        try {
            return codec.decode(record.value());
        } catch (RuntimeException e) {
            log.warn("skipping undecodable order event at {}-{} offset {}: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
            return null;
        }
    }

    /**
     * Commits what the destination took on {@code partitions} and forgets it. Refused because the
     * partitions moved on, or failing as they are revoked (thrown out of a rebalance callback, it
     * would start the relay over), it is only logged: their next relay delivers again what was not
     * committed, and it is taken once. Any other failure starts this relay over from the committed offsets.
     */
    private void commitTaken(KafkaConsumer<String, byte[]> kafka, Collection<TopicPartition> partitions, boolean revoking) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition partition : partitions) {
            OffsetAndMetadata offset = taken.remove(partition);
            if (offset != null) {
                offsets.put(partition, offset);
            }
        }
        if (offsets.isEmpty()) {
            return;
        }
        try {
            unwoken(() -> {
                kafka.commitSync(offsets);
                return null;
            });
        } catch (CommitFailedException | RebalanceInProgressException moved) {
            log.info("relay to {}: commit refused after a rebalance; the partitions' new relay delivers again", destination);
        } catch (RuntimeException e) {
            if (!revoking) {
                throw e;
            }
            log.info("relay to {}: no commit as {} partitions were revoked ({}); their next relay delivers again", destination, offsets.size(), e.toString());
        }
    }
}
