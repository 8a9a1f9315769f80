package org.brokerapp.broker.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.brokerapp.broker.events.EventTopics;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventCodec;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.brokerapp.infra.servers.KafkaAccess;
import org.junit.jupiter.api.Test;

/**
 * The region's only Kafka killed: LIMIT orders placed there are still accepted, because an event
 * Kafka does not acknowledge in time is carried straight to the region acting on it, and that
 * region's matcher has the order: a tick there fills it. Once Kafka is back, ticks flow again, the
 * events Kafka refused meanwhile are in {@code order-events} after all (the publisher's backlog probes
 * Kafka until it answers, with no new event needed), so search gets them, and the order matched at
 * home fills too. Before the fallback, each such placement waited 6 s for its event and was answered
 * 503.
 */
@BrokersTest
class KafkaOutageIT {

    private static final String HOME = "us-east-1";
    private static final String AWAY = "ap-southeast-2";
    /** Homed in us-east-1 (load customers take the regions in turn), used by no other test. */
    private static final String CUSTOMER = "load-17";
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final Pattern DIRECT = Pattern.compile("(?m)^broker_events_delivered_directly_total\\{[^}]*} ([0-9.E]+)");
    private static final Pattern OWED = Pattern.compile("(?m)^broker_events_owed_to_kafka\\{[^}]*} ([0-9.E]+)");

    @Test
    void withItsKafkaDownARegionStillAcceptsLimitOrdersAndTheirMatchersGetThem(Brokers brokers) {
        TestSession customer = brokers.client(HOME, CUSTOMER, CUSTOMER + "-pw");
        TestSession customerAway = brokers.client(AWAY, CUSTOMER, CUSTOMER + "-pw");
        double directBefore = brokers.metric(HOME, DIRECT);
        String matchedAway;
        String matchedHome;

        brokers.stack().killKafka(HOME);
        try {
            Reply away = customer.place(Map.of("clientOrderId", "outage-away", "symbol", "WES", "side", "BUY", "type", "LIMIT", "quantity", 10,
                    "limitPrice", "85.00"));
            Reply home = customer.place(Map.of("clientOrderId", "outage-home", "symbol", "DIS", "side", "BUY", "type", "LIMIT", "quantity", 10,
                    "limitPrice", "112.00"));

            assertThat(away.status()).as(away.raw()).isEqualTo(201);
            assertThat(home.status()).as(home.raw()).isEqualTo(201);
            assertThat(brokers.metric(HOME, DIRECT) - directBefore).as("events carried around the dead Kafka").isGreaterThanOrEqualTo(2);
            matchedAway = away.text("orderId");
            matchedHome = home.text("orderId");

            // Sydney's Kafka is up: its matcher got the order directly, and a tick there fills it
            try (TickPublisher awayTicks = brokers.ticks(AWAY)) {
                Reply filled = customerAway.awaitFilledTicking(matchedAway, () -> awayTicks.tick("WES", "ASX", "85.00"), SETTLE);
                assertThat(filled.text("filledBy")).isEqualTo(AWAY);
            }
            // the producer gives up on what it buffered after its delivery timeout (10 s): from then on only the backlog has it
            Await.until("the outage's events owed to Kafka", SETTLE, () -> brokers.metric(HOME, OWED) >= 2);
        } finally {
            brokers.stack().restartKafka(HOME);
        }

        // before any new event: the backlog probes Kafka by itself, it does not wait for traffic to notice Kafka is back
        Set<UUID> outage = Set.of(UUID.fromString(matchedAway), UUID.fromString(matchedHome));
        Await.until("the outage's placements in " + HOME + "'s order-events", SETTLE,
                () -> placedInKafka(brokers, outage).containsAll(outage));
        try (TickPublisher homeTicks = brokers.ticks(HOME)) {
            Reply filled = customer.awaitFilledTicking(matchedHome, () -> homeTicks.tick("DIS", "NYSE", "112.00"), SETTLE);
            assertThat(filled.text("filledBy")).isEqualTo(HOME);
        }
    }

    /** The orders among {@code orders} whose PLACED event is in the region's {@code order-events}, read from the start. */
    private static Set<UUID> placedInKafka(Brokers brokers, Set<UUID> orders) {
        Map<String, Object> config = new HashMap<>(brokers.stack().kafkaClientConfig(HOME, KafkaAccess.ADMIN));
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        OrderEventCodec codec = new OrderEventCodec();
        Set<UUID> found = new HashSet<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(EventTopics.ORDER_EVENTS).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (CUSTOMER.equals(record.key())) {
                        OrderEvent event = codec.decode(record.value());
                        if (event.type() == OrderEvent.Type.PLACED && orders.contains(event.orderId())) {
                            found.add(event.orderId());
                        }
                    }
                }
            }
        }
        return found;
    }
}
