package org.brokerapp.ticker.publish;

import java.util.function.Consumer;

import org.apache.kafka.common.KafkaException;
import org.brokerapp.ticker.Tick;
import org.brokerapp.ticker.TickProducer;

/**
 * Hands ticks to the producer without waiting for acknowledgements: they arrive in {@link DeliveryStats}.
 * Only a full producer buffer makes {@code send} block, which the pacer sees as lag.
 */
final class KafkaTickSink implements Consumer<Tick> {

    private final TickProducer producer;
    private final DeliveryStats stats;

    KafkaTickSink(TickProducer producer, DeliveryStats stats) {
        this.producer = producer;
        this.stats = stats;
    }

    @Override
    public void accept(Tick tick) {
        try {
            producer.send(tick, stats);
        } catch (KafkaException e) {
            // most failures come through the callback; these (e.g. buffer full beyond max.block.ms) are thrown
            stats.failed(e);
        }
    }
}
