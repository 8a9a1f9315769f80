package org.brokerapp.ticker.publish;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.brokerapp.ticker.Tick;
import org.brokerapp.ticker.TickCodec;

/**
 * Hands ticks to the Kafka producer, keyed by symbol, without waiting for acknowledgements: they
 * arrive in {@link DeliveryStats}. Only a full producer buffer makes {@code send} block, which the
 * pacer sees as lag. Used by the feed's thread only.
 */
final class KafkaTickSink implements Consumer<Tick> {

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final DeliveryStats stats;
    private final Map<String, byte[]> keys = new HashMap<>();

    KafkaTickSink(Producer<byte[], byte[]> producer, String topic, DeliveryStats stats) {
        this.producer = producer;
        this.topic = topic;
        this.stats = stats;
    }

    @Override
    public void accept(Tick tick) {
        byte[] key = keys.computeIfAbsent(tick.symbol(), s -> s.getBytes(StandardCharsets.UTF_8));
        try {
            producer.send(new ProducerRecord<>(topic, key, TickCodec.encode(tick)), stats);
        } catch (KafkaException e) {
            // most failures come through the callback; these (e.g. buffer full beyond max.block.ms) are thrown
            stats.failed(e);
        }
    }
}
