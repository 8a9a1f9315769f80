package org.brokerapp.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.brokerapp.infra.host.Await;
import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.servers.KafkaAccess;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@LocalStackTest
class KafkaPerRegionIT {

    private final LocalStack stack;

    KafkaPerRegionIT(LocalStack stack) {
        this.stack = stack;
    }

    static List<String> regions() {
        return org.brokerapp.regions.RegionsFile.load().names();
    }

    @ParameterizedTest
    @MethodSource("regions")
    void eachRegionsKafkaAcceptsAndReturnsRecords(String region) throws Exception {
        String topic = "check-" + region;
        try (Admin admin = Admin.create(stack.kafkaClientConfig(region, KafkaAccess.ADMIN))) {
            admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Map<String, Object> producerConfig = stack.kafkaClientConfig(region, KafkaAccess.ADMIN);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(topic, "SYM" + i, "tick " + i + " in " + region)).get(30, TimeUnit.SECONDS);
            }
        }

        Properties consumerConfig = new Properties();
        consumerConfig.putAll(stack.kafkaClientConfig(region, KafkaAccess.ADMIN));
        consumerConfig.putAll(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "check",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
        List<String> received = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            Await.until("10 records read back from " + region, Duration.ofSeconds(30), () -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    received.add(r.value());
                }
                return received.size() >= 10;
            });
        }
        assertThat(received).hasSize(10).allSatisfy(v -> assertThat(v).endsWith("in " + region));
    }
}
