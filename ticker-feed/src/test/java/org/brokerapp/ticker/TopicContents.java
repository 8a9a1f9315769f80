package org.brokerapp.ticker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Everything a topic holds, read with a plain consumer, each value decoded as a tick. */
final class TopicContents {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private TopicContents() {
    }

    record Record(int partition, long offset, String key, Tick tick) {
    }

    /** {@code kafka}: where the Kafka answers and a login that may read {@code topic}. */
    static List<Record> readAll(Map<String, Object> kafka, String topic) {
        Properties config = new Properties();
        config.putAll(kafka);
        config.putAll(Map.of(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000));
        List<Record> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, READ_TIMEOUT).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, READ_TIMEOUT);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " to its end within " + READ_TIMEOUT);
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    records.add(new Record(r.partition(), r.offset(), r.key(), TickCodec.decode(r.value())));
                }
            }
        }
        return records;
    }
}
