package org.brokerapp.broker.relay;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

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
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.events.DirectDelivery;
import org.brokerapp.broker.events.EventRouting;
import org.brokerapp.broker.events.EventTopics;
import org.brokerapp.broker.events.MalformedOrderEventException;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventCodec;
import org.brokerapp.broker.peer.PeerLinks;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.system.KafkaConsumers;
import org.brokerapp.broker.system.LoopThread;
import org.brokerapp.regions.RegionsModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Carries this region's order events to the regions that act on them: an order placed here for a
 * symbol matched elsewhere, or a cancel request, to the region holding the symbol's exchange; a fill
 * or cancel decided here to the home region of the customer (this region included, through the same
 * path). One consumer group per destination ({@code relay-<region>-to-<destination>}) reads the
 * region's {@code order-events} and commits only what the destination took (at most once per
 * {@code broker.events.relay-commit-interval}, not per event), so a cut region stalls
 * its own relay and nothing else, and nothing is lost when a relay or a destination restarts: the
 * events are delivered again and taken once ({@link EventIntake}). No table is polled: a record
 * reaches its destination one Kafka long poll plus one WAN crossing after it was published. A relay
 * reads only a record's {@link EventRouting} headers to know whether it is for its destination, and
 * hands another region's events on as they were published: each event is decoded once, where it is
 * taken.
 *
 * <p>It is also the publisher's way around Kafka ({@link DirectDelivery}): an event Kafka has not
 * acknowledged in time is handed over the same way, at once, by itself.
 */
@Component
public class EventRelay implements SmartLifecycle, DirectDelivery, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(EventRelay.class);
    private static final Duration HAND_OVER_TIMEOUT = Duration.ofSeconds(5);

    private final BrokerProperties properties;
    private final List<String> destinations;
    private final ExchangeOwnership exchanges;
    private final CustomerHomes homes;
    private final EventIntake intake;
    private final PeerLinks links;
    private final OrderEventCodec codec;
    private final MeterRegistry meters;
    private final Map<String, Relay> relays = new ConcurrentHashMap<>();
    /** Hands events around Kafka to their destination, which may block (a WAN round trip, or passing them on to another instance). */
    private final ExecutorService directDelivery = Executors.newFixedThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "direct-delivery");
        thread.setDaemon(true);
        return thread;
    });

    public EventRelay(BrokerProperties properties, RegionsModel regions, ExchangeOwnership exchanges, CustomerHomes homes, EventIntake intake,
                      PeerLinks links, OrderEventCodec codec, MeterRegistry meters) {
        this.properties = properties;
        this.destinations = regions.names();
        this.exchanges = exchanges;
        this.homes = homes;
        this.intake = intake;
        this.links = links;
        this.codec = codec;
        this.meters = meters;
    }

    /** The region that acts on an event so routed: the one matching its symbol, or the customer's home; null when no region can act on it. */
    String destinationOf(EventRouting routing) {
        return routing.forMatcher() ? exchanges.matchingRegionOf(routing.symbol(), routing.exchange()).orElse(null)
                : homes.homeOf(routing.customerId()).orElse(null);
    }

    @Override
    public CompletableFuture<Void> deliver(OrderEvent event) {
        String destination = destinationOf(EventRouting.of(event));
        if (destination == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("no region can act on order event " + event.eventId()));
        }
        return CompletableFuture.runAsync(() -> {
            if (!handOver(destination, List.of(codec.encode(event)), false)) {
                throw new IllegalStateException(destination + " did not take order event " + event.eventId());
            }
        }, directDelivery);
    }

    /**
     * Hands a batch of encoded events to their destination region (this one: its intake) and waits;
     * true once every event was taken. Only this region's own events are decoded here; another
     * region's go as they were published, decoded once, there.
     */
    private boolean handOver(String destination, List<byte[]> batch, boolean replayed) {
        if (destination.equals(properties.region())) {
            return intake.take(properties.region(), decodable(batch), replayed, false);
        }
        Optional<URI> peer = links.peer(destination);
        if (peer.isEmpty()) {
            log.warn("no route to {} (broker.routing.peers): {} events wait", destination, batch.size());
            return false;
        }
        int status = post(peer.get(), destination, codec.joinEncoded(batch), batch.size(), replayed);
        if (status == HttpStatus.BAD_REQUEST.value()) {
            // the destination takes a batch whole or not at all, and one of these is not an event: the others go without it
            List<OrderEvent> events = decodable(batch);
            status = events.isEmpty() ? HttpStatus.OK.value() : post(peer.get(), destination, codec.encodeAll(events), events.size(), replayed);
        }
        return status == HttpStatus.OK.value();
    }

    /** The destination's answer to a batch, or -1 when there was none. */
    private int post(URI peer, String destination, byte[] batch, int events, boolean replayed) {
        try {
            return links.post(destination, peer, EventIntake.PATH + "?replayed=" + replayed, batch, HAND_OVER_TIMEOUT, PeerLinks.MANY_CUSTOMERS).status();
        } catch (IOException | RuntimeException notTaken) {
            log.debug("{} did not take {} events: {}", destination, events, notTaken.toString());
            return -1;
        }
    }

    /** The batch's events; a record that is not one is logged and skipped (passed on, it would stall the relay for good). */
    private List<OrderEvent> decodable(List<byte[]> batch) {
        List<OrderEvent> events = new ArrayList<>(batch.size());
        for (byte[] encoded : batch) {
            try {
                events.add(codec.decode(encoded));
            } catch (MalformedOrderEventException e) {
                log.warn("skipping a record of {} that is not an order event: {}", EventTopics.ORDER_EVENTS, e.getMessage());
            }
        }
        return events;
    }

    @Override
    public void start() {
        for (String destination : destinations) {
            relays.computeIfAbsent(destination, Relay::new).start();
        }
    }

    @Override
    public void stop() {
        relays.values().forEach(Relay::stop);
    }

    @Override
    public void destroy() {
        directDelivery.shutdownNow();
    }

    @Override
    public boolean isRunning() {
        return relays.values().stream().anyMatch(Relay::isRunning);
    }

    /** After the matcher and the account owners (which take what is relayed), before the web server. */
    @Override
    public int getPhase() {
        return 20;
    }

    /** The consumer group of the relay from {@code region} to {@code destination}. */
    public static String group(String region, String destination) {
        return "relay-" + region + "-to-" + destination;
    }

    /** Whether every relay's poll loop runs (readiness: a stopped relay strands orders placed here). */
    public boolean isRelaying() {
        return !relays.isEmpty() && relays.values().stream().allMatch(r -> r.isRunning() && r.polling);
    }

    /** A record to carry: how it is routed, and its event as published. */
    private record Carried(EventRouting routing, byte[] event) {
    }

    /** The relay to one destination region: its own consumer group, on a thread of its own. */
    private final class Relay extends LoopThread {

        private final String destination;
        private final Counter relayed;
        private final Map<TopicPartition, Long> replayUntil = new ConcurrentHashMap<>();
        /** Offsets past what the destination took and this relay has not committed yet (only its own thread touches them). */
        private final Map<TopicPartition, OffsetAndMetadata> taken = new HashMap<>();
        private volatile KafkaConsumer<String, byte[]> consumer;
        private volatile boolean polling;

        Relay(String destination) {
            super("relay-to-" + destination, 20);
            this.destination = destination;
            this.relayed = Counter.builder("broker.events.relayed").tag("to", destination)
                    .description("order events this region's relay delivered, by destination region").register(meters);
        }

        @Override
        protected void loop() {
            // any failure closes the consumer and starts over from the committed offsets
            startOverOnFailure(this::relay);
        }

        @Override
        protected void wake() {
            KafkaConsumer<String, byte[]> c = consumer;
            if (c != null) {
                c.wakeup();
            }
        }

        private void relay() {
            Properties config = KafkaConsumers.configFor(properties, group(properties.region(), destination));
            // a new group starts at the beginning: every event published before any relay ran is still carried
            config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "500");
            taken.clear(); // a consumer starting over reads again from the committed offsets
            try (KafkaConsumer<String, byte[]> kafka = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
                 KafkaClientMetrics clientMeters = KafkaConsumers.metered(kafka, meters)) {
                consumer = kafka;
                kafka.subscribe(List.of(EventTopics.ORDER_EVENTS), new ConsumerRebalanceListener() {
                    @Override
                    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                        // what was published before this relay took the partition may have been acted on already
                        replayUntil.putAll(kafka.endOffsets(partitions));
                    }

                    @Override
                    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                        partitions.forEach(replayUntil::remove);
                        // what was taken since the last commit, before the partitions go (a close revokes them too)
                        commitTaken(kafka, partitions, true);
                    }
                });
                polling = true;
                long interval = properties.events().relayCommitInterval().toNanos();
                long lastCommit = System.nanoTime();
                while (isRunning()) {
                    var records = kafka.poll(Duration.ofMillis(500));
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
         * Delivers the records for the destination, picked by their {@link EventRouting} headers
         * without decoding them; once it took them, their offsets are {@link #taken}, to commit.
         */
        private void carry(KafkaConsumer<String, byte[]> kafka, ConsumerRecords<String, byte[]> records) {
            List<Carried> batch = new ArrayList<>();
            boolean replayed = false;
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (ConsumerRecord<String, byte[]> record : records) {
                TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                offsets.put(partition, new OffsetAndMetadata(record.offset() + 1));
                EventRouting routing = routingOf(record);
                String to = routing == null ? null : destinationOf(routing);
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
            if (batch.isEmpty() || deliver(kafka, batch, replayed)) {
                taken.putAll(offsets);
            }
        }

        /** From the record's headers; a record without them (published before they were written) is decoded for it. Null: not an event. */
        private EventRouting routingOf(ConsumerRecord<String, byte[]> record) {
            return EventRouting.of(record).orElseGet(() -> {
                OrderEvent event = decode(record);
                return event == null ? null : EventRouting.of(event);
            });
        }

        /** Until the destination took the batch (true) or this relay stops; polling on meanwhile (paused) so the group keeps this member. */
        private boolean deliver(KafkaConsumer<String, byte[]> kafka, List<Carried> batch, boolean replayed) {
            Set<TopicPartition> assigned = kafka.assignment();
            boolean paused = false;
            List<Carried> pending = batch;
            boolean took = false;
            while (isRunning()) {
                took = handOver(pending, replayed);
                if (took) {
                    relayed.increment(pending.size());
                    break;
                }
                if (!paused) {
                    kafka.pause(assigned);
                    paused = true;
                }
                kafka.poll(properties.events().relayRetry());
                // an exchange may have moved meanwhile: its new owner rebuilt its orders from open_orders
                pending = pending.stream().filter(c -> destination.equals(destinationOf(c.routing()))).toList();
            }
            if (paused) {
                kafka.resume(kafka.assignment());
            }
            return took;
        }

        /** On the relay's own thread, this region's intake too: the next batch waits for this one. */
        private boolean handOver(List<Carried> batch, boolean replayed) {
            return batch.isEmpty() || EventRelay.this.handOver(destination, batch.stream().map(Carried::event).toList(), replayed);
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
                kafka.commitSync(offsets);
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

}
