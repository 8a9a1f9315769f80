package org.brokerapp.broker.ticker;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.ticker.Topics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * What happens to a tick {@link TickGuard} refuses: it is counted by kind
 * ({@code broker_ticks_refused_total{kind}}), logged once per kind, and written as it came to
 * {@code ticks.dead-letter} (same key) with headers saying why and where it came from:
 * {@code refused-kind}, {@code refused-reason}, {@code source} ({@code topic-partition@offset}) and
 * {@code region}. Writing is asynchronous; a dead-letter write that fails is logged once and never
 * stops the consumer.
 */
@Component
class TickRefusals implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TickRefusals.class);

    private final BrokerMetrics metrics;
    private final BrokerProperties broker;
    private final TickGuardProperties properties;
    private final Set<TickGuard.Kind> logged = ConcurrentHashMap.newKeySet();
    private volatile boolean sendFailureLogged;
    private KafkaProducer<String, byte[]> producer;

    public TickRefusals(BrokerMetrics metrics, BrokerProperties broker, TickGuardProperties properties) {
        this.metrics = metrics;
        this.broker = broker;
        this.properties = properties;
    }

    void refuse(ConsumerRecord<String, byte[]> record, TickGuard.Refused refused) {
        metrics.tickRefused(refused.kind().tag());
        if (logged.add(refused.kind())) {
            log.warn("refused a tick at {}-{} offset {}: {}: {} (logged once per kind; all go to {})", record.topic(), record.partition(),
                    record.offset(), refused.kind().tag(), refused.reason(), Topics.TICKS_DEAD_LETTER);
        }
        if (properties.deadLetter()) {
            List<Header> headers = List.of(
                    header("refused-kind", refused.kind().tag()),
                    header("refused-reason", refused.reason()),
                    header("source", record.topic() + "-" + record.partition() + "@" + record.offset()),
                    header("region", broker.region()));
            producer().send(new ProducerRecord<>(Topics.TICKS_DEAD_LETTER, null, record.key(), record.value(), headers), (metadata, e) -> {
                if (e != null && !sendFailureLogged) {
                    sendFailureLogged = true;
                    log.warn("could not write to {} (logged once): {}", Topics.TICKS_DEAD_LETTER, e.toString());
                }
            });
        }
    }

    void reopened(String symbol) {
        metrics.tick("band.reopened");
        log.info("{}: every tick was outside its band for {}; reopened on the next one", symbol, properties.reopenAfter());
    }

    private static Header header(String key, String value) {
        return new RecordHeader(key, value.getBytes(StandardCharsets.UTF_8));
    }

    private synchronized KafkaProducer<String, byte[]> producer() {
        if (producer == null) {
            Properties config = new Properties();
            config.putAll(broker.kafka().connection());
            config.put(ProducerConfig.LINGER_MS_CONFIG, "20");
            config.put(ProducerConfig.ACKS_CONFIG, "1");
            config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "1000");
            createTopic();
            producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    /**
     * Creates {@code ticks.dead-letter} the first time a tick is refused, if it is missing: topics are
     * created by their owners, never by a producer's auto-creation (off in production Kafka), and a
     * send to a missing topic would hold the poll thread for {@code max.block.ms} on every refusal.
     * Bounded at 5 s, once; a failure is logged and the sends then fail (logged once) without stopping anything.
     */
    private void createTopic() {
        BrokerProperties.Events events = broker.events();
        try (Admin admin = Admin.create(adminConfig(broker.kafka().connection()))) {
            admin.createTopics(List.of(new NewTopic(Topics.TICKS_DEAD_LETTER, 1, events.replicationFactor()))).all().get(5, TimeUnit.SECONDS);
            log.info("created topic {}", Topics.TICKS_DEAD_LETTER);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                log.warn("could not create {}: {}", Topics.TICKS_DEAD_LETTER, e.getCause().toString());
            }
        } catch (TimeoutException | RuntimeException e) {
            log.warn("could not create {}: {}", Topics.TICKS_DEAD_LETTER, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Every call within 5 s: the API timeout may not be below the request timeout (the client refuses to start). */
    static Map<String, Object> adminConfig(Map<String, Object> connection) {
        Map<String, Object> config = new java.util.HashMap<>(connection);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
        return config;
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(java.time.Duration.ofSeconds(2));
        }
    }
}
