package org.brokerapp.ticker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes ticks to a region's Kafka, the one way every writer of ticks does (the feed, the load harness, the tests):
 * to the ticks topic, keyed by the symbol so that a symbol's ticks keep their order on one partition, in
 * {@link TickCodec}'s form. Sends do not wait; a callback or the returned future says how each ended.
 */
public final class TickProducer implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final Map<String, byte[]> keys = new ConcurrentHashMap<>();

    /** {@code config}: the connection, the login and the producer's settings; keys and values are bytes here. */
    public TickProducer(Map<String, Object> config, String topic) {
        this.producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        this.topic = topic;
    }

    /**
     * A producer to {@link Topics#TICKS} that sends each tick at once and counts it written once every in-sync
     * replica has it: what a test or the harness wants of a tick whose effect it then times or awaits.
     */
    public static TickProducer sendingEachAtOnce(Map<String, Object> kafka, String clientId) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        return new TickProducer(config, Topics.TICKS);
    }

    public Future<RecordMetadata> send(Tick tick, Callback callback) {
        return producer.send(new ProducerRecord<>(topic, keyOf(tick.symbol()), TickCodec.encode(tick)), callback);
    }

    public Future<RecordMetadata> send(Tick tick) {
        return send(tick, null);
    }

    /** Bytes under a symbol's key that need not be a tick: what a broken or hostile writer sends. */
    public Future<RecordMetadata> sendRaw(String symbol, byte[] value) {
        return producer.send(new ProducerRecord<>(topic, keyOf(symbol), value));
    }

    /** The topic's partitions, asked of Kafka now: after this, the first send does not wait for metadata. */
    public List<PartitionInfo> partitions() {
        return producer.partitionsFor(topic);
    }

    public void flush() {
        producer.flush();
    }

    /** Waits up to {@code timeout} for what was sent to be acknowledged; {@link Duration#ZERO} drops it. */
    public void close(Duration timeout) {
        producer.close(timeout);
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }

    private byte[] keyOf(String symbol) {
        return keys.computeIfAbsent(symbol, s -> s.getBytes(StandardCharsets.UTF_8));
    }
}
