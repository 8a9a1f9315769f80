package org.brokerapp.ticker.publish;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.brokerapp.regions.KafkaCredential;
import org.brokerapp.regions.KafkaTrust;

/**
 * Where and how a region's feed writes: its Kafka, topic, partitions, compression, how long to
 * wait for Kafka at the start, and the login (a Kafka with ACLs lets only the feed write ticks), over TLS with a trust.
 */
public record KafkaSettings(String bootstrapServers, String topic, int partitions, String compression, Duration timeout,
                            Optional<KafkaCredential> login, Optional<KafkaTrust> trust) {

    public static final int DEFAULT_PARTITIONS = 12;
    public static final String DEFAULT_COMPRESSION = "lz4";
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);

    /**
     * Throughput and honesty: every tick acknowledged by all in-sync replicas, idempotent (no
     * duplicates from retries, order kept per partition), batched for up to 5 ms or 64 KiB.
     */
    Map<String, Object> producer(String clientId) {
        return withLogin(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.CLIENT_ID_CONFIG, clientId,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, compression));
    }

    Map<String, Object> admin(String clientId) {
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        return withLogin(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.CLIENT_ID_CONFIG, clientId,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis));
    }

    private Map<String, Object> withLogin(Map<String, Object> config) {
        Map<String, Object> all = new HashMap<>(config);
        login.ifPresent(l -> all.putAll(l.clientProperties(trust)));
        return all;
    }
}
