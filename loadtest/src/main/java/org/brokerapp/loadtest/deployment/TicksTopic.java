package org.brokerapp.loadtest.deployment;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.brokerapp.ticker.Topics;

/**
 * Makes sure a region's Kafka has the ticks topic (brokers never create it) and serves every
 * partition: metadata names a new partition's leader before it has loaded it, and an idempotent
 * producer's first batch can then be lost (as ticker-feed's TopicSetup found).
 */
public final class TicksTopic {

    static final int PARTITIONS = 12;

    private TicksTopic() {
    }

    /** {@code kafka}: where the region's Kafka answers and a login that may create topics. */
    public static void ensure(Map<String, Object> kafka) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.put("default.api.timeout.ms", 30_000);
        Object bootstrap = kafka.get("bootstrap.servers");
        try (Admin admin = Admin.create(config)) {
            int partitions;
            try {
                admin.createTopics(List.of(new NewTopic(Topics.TICKS, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
                partitions = PARTITIONS;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
                partitions = admin.describeTopics(List.of(Topics.TICKS)).allTopicNames().get(30, TimeUnit.SECONDS)
                        .get(Topics.TICKS).partitions().size();
            }
            Map<TopicPartition, OffsetSpec> all = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                all.put(new TopicPartition(Topics.TICKS, p), OffsetSpec.latest());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try {
                    admin.listOffsets(all).all().get(30, TimeUnit.SECONDS);
                    return;
                } catch (ExecutionException notYet) {
                    if (System.nanoTime() > deadline) {
                        throw notYet;
                    }
                    BrokerProcesses.sleep(100);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while preparing the ticks topic at " + bootstrap);
        } catch (Exception e) {
            throw new IllegalStateException("cannot prepare the ticks topic at " + bootstrap + ": " + e.getMessage(), e);
        }
    }
}
