package org.brokerapp.broker.events;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.brokerapp.broker.deciding.AccountOwnership;
import org.brokerapp.broker.system.BrokerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the order path's topics in the region's Kafka at start-up, when they are missing.
 *
 * <p>A Kafka that does not answer is asked again until {@link #PATIENCE} has passed, one attempt
 * every {@link #ATTEMPT}: a broker restarted on a starved machine (the broker-kill drill on two
 * cores: minutes of JVM start-up beside three busy brokers) saw its first 30 s attempt time out
 * and exited, where a supervisor would only have started it again, later still.
 */
final class OrderPathTopics {

    private static final Logger log = LoggerFactory.getLogger(OrderPathTopics.class);
    static final Duration ATTEMPT = Duration.ofSeconds(30);
    static final Duration PATIENCE = Duration.ofMinutes(5);

    private OrderPathTopics() {
    }

    static void ensure(BrokerProperties properties) {
        BrokerProperties.Events events = properties.events();
        ensure(properties.kafka().connection(), properties.kafka().bootstrapServers(),
                List.of(new NewTopic(EventTopics.ORDER_EVENTS, events.partitions(), events.replicationFactor()),
                        new NewTopic(AccountOwnership.TOPIC, events.partitions(), events.replicationFactor())),
                ATTEMPT, PATIENCE);
    }

    /** Creates the missing ones of {@code topics}; throws, with a one-line reason, when Kafka refuses or has not answered within {@code patience}. */
    static void ensure(Map<String, Object> connection, String bootstrapServers, List<NewTopic> topics, Duration attempt, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        for (int attempts = 1; ; attempts++) {
            try {
                create(connection, topics, attempt);
                return;
            } catch (TimeoutException | org.apache.kafka.common.errors.TimeoutException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new IllegalStateException("Kafka at " + bootstrapServers + " did not answer within " + patience.toSeconds() + " s ("
                            + attempts + " attempts)", e);
                }
                log.warn("Kafka at {} did not answer within {} s (attempt {}); asking again, for up to {} s in all", bootstrapServers,
                        attempt.toSeconds(), attempts, patience.toSeconds());
            }
        }
    }

    private static void create(Map<String, Object> connection, List<NewTopic> topics, Duration attempt) throws TimeoutException {
        Map<String, Object> config = new HashMap<>(connection);
        // both, or the admin raises the call's timeout to the request's (30 s) and its close waits that long
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) attempt.toMillis());
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) attempt.toMillis());
        try (Admin admin = Admin.create(config)) {
            for (NewTopic topic : topics) {
                try {
                    admin.createTopics(List.of(topic)).all().get(attempt.toMillis(), TimeUnit.MILLISECONDS);
                    log.info("created topic {} ({} partitions)", topic.name(), topic.numPartitions());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException timedOut) {
                        throw timedOut;
                    }
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + topic.name() + ": " + e.getCause().getMessage(), e);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }
}
