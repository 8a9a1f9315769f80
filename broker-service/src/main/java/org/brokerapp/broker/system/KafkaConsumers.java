package org.brokerapp.broker.system;

import java.util.Properties;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;

/**
 * What every consumer group of a broker shares: this region's Kafka and its login, no topic created by accident, one
 * session timeout, and cooperative rebalancing.
 */
public final class KafkaConsumers {

    private KafkaConsumers() {
    }

    public static Properties configFor(BrokerProperties properties, String group) {
        Properties config = new Properties();
        config.putAll(properties.kafka().connection());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        // topics are created by their owners with their partition layout, never by a consumer with defaults
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Long.toString(properties.kafka().sessionTimeout().toMillis()));
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Long.toString(properties.kafka().sessionTimeout().toMillis() / 4));
        // a rebalance moves only the partitions that change hands: an instance keeps deciding on what it keeps while it
        // takes over a dead one's partitions (an eager rebalance revoked everything, and the survivor's own symbols waited
        // with the dead one's for its leases to lapse). Every listener here handles the partitions it is given, not the whole set.
        config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        return config;
    }

    /**
     * The consumer's own metrics (records lag, fetch latency, rebalances, ...) as Micrometer meters
     * ({@code kafka.consumer.*}), until the returned binder is closed: close it with the consumer.
     */
    public static KafkaClientMetrics metered(Consumer<?, ?> consumer, MeterRegistry registry) {
        KafkaClientMetrics metrics = new KafkaClientMetrics(consumer);
        metrics.bindTo(registry);
        return metrics;
    }
}
