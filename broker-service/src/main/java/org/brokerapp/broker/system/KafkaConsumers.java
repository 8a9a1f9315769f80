package org.brokerapp.broker.system;

import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;

/** What every consumer group of a broker shares: this region's Kafka and its login, no topic created by accident, one session timeout. */
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
        return config;
    }
}
