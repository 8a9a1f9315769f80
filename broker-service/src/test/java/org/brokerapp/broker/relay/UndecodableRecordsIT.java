package org.brokerapp.broker.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.brokerapp.broker.events.EventRouting;
import org.brokerapp.broker.events.EventTopics;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.servers.KafkaAccess;
import org.junit.jupiter.api.Test;

/**
 * Records on {@code order-events} that are not order events do not stall the relay. A relay hands
 * another region's records on undecoded, picked by their routing headers; the destination takes a
 * batch whole or refuses it (400), and the relay then sends it again without the records that are
 * not events. Records without headers are decoded to be routed, and skipped when they cannot be.
 * An order placed after them still reaches the matcher across the WAN and fills.
 */
@BrokersTest
class UndecodableRecordsIT {

    private static final String HOME = "us-east-1";
    private static final String AWAY = "ap-southeast-2";
    /** Homed in us-east-1 (load customers take the regions in turn), used by no other test. */
    private static final String CUSTOMER = "load-13";
    private static final Duration SETTLE = Duration.ofSeconds(30);

    @Test
    void recordsThatAreNotEventsAreSkippedAndTheEventsAfterThemArriveAcrossTheWan(Brokers brokers) throws Exception {
        try (KafkaProducer<String, byte[]> producer = producer(brokers)) {
            // routed to Sydney's matcher by its headers, as the publisher writes them, with a value that is no event
            producer.send(new ProducerRecord<>(EventTopics.ORDER_EVENTS, null, CUSTOMER, bytes("{\"not\": \"an event\"}"),
                    new EventRouting(true, "WES", "ASX", CUSTOMER).headers())).get(10, TimeUnit.SECONDS);
            producer.send(new ProducerRecord<>(EventTopics.ORDER_EVENTS, CUSTOMER, bytes("not even json"))).get(10, TimeUnit.SECONDS);
        }
        TestSession customer = brokers.client(HOME, CUSTOMER, CUSTOMER + "-pw");

        Reply placed = customer.place(Map.of("clientOrderId", "after-undecodable", "symbol", "WES", "side", "BUY", "type", "LIMIT", "quantity", 10,
                "limitPrice", "85.00"));

        assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
        String orderId = placed.text("orderId");
        try (TickPublisher awayTicks = brokers.ticks(AWAY)) {
            Reply filled = customer.awaitFilledTicking(orderId, () -> awayTicks.tick("WES", "ASX", "85.00"), SETTLE);
            assertThat(filled.text("filledBy")).isEqualTo(AWAY);
        }
    }

    private static KafkaProducer<String, byte[]> producer(Brokers brokers) {
        Map<String, Object> config = new HashMap<>(brokers.stack().kafkaClientConfig(HOME, KafkaAccess.ADMIN));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
