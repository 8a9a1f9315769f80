package org.brokerapp.broker.ticker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.ticker.Topics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * How far this region's tick consumers are behind, per tick partition, the way lag exporters
 * measure it from outside: the partition's end offset minus the group's committed offset, read
 * with Kafka's admin API every {@link #EVERY}. Published as {@code broker_tick_consumer_lag_records},
 * {@code broker_tick_partition_end_offset} and {@code broker_tick_consumer_committed_offset}
 * (tags region, partition); a partition whose end moves while its committed offset does not is
 * stalled (alert {@code TickPartitionStalled}). Offsets are committed automatically every 5 s, so
 * lag is exact to within 5 s of ticks. Every instance of a region reports the same group: take the
 * max across instances.
 */
@Component
class TickConsumerLag implements AutoCloseable {

    static final Duration EVERY = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(TickConsumerLag.class);

    private final Admin admin;
    private final String group;
    private final String region;
    private final MeterRegistry registry;
    private final Map<Integer, AtomicLongArray> endAndCommitted = new ConcurrentHashMap<>();
    private final ScheduledExecutorService reader;

    TickConsumerLag(BrokerProperties properties, MeterRegistry registry) {
        Map<String, Object> config = new java.util.HashMap<>(properties.kafka().connection());
        config.putAll(Map.of(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) EVERY.toMillis(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) EVERY.toMillis(),
                AdminClientConfig.CLIENT_ID_CONFIG, "tick-lag-" + properties.region()));
        this.admin = Admin.create(config);
        this.group = properties.consumerGroup();
        this.region = properties.region();
        this.registry = registry;
        this.reader = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tick-consumer-lag");
            t.setDaemon(true);
            return t;
        });
        reader.scheduleWithFixedDelay(this::read, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void read() {
        try {
            List<TopicPartition> partitions = admin.describeTopics(List.of(Topics.TICKS)).allTopicNames().get(EVERY.toMillis(), TimeUnit.MILLISECONDS)
                    .get(Topics.TICKS).partitions().stream().map(p -> new TopicPartition(Topics.TICKS, p.partition())).toList();
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(EVERY.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin
                    .listOffsets(partitions.stream().collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest())))
                    .all().get(EVERY.toMillis(), TimeUnit.MILLISECONDS);
            for (TopicPartition tp : partitions) {
                OffsetAndMetadata c = committed.get(tp);
                if (c == null) {
                    continue; // nobody committed yet: no lag to speak of
                }
                AtomicLongArray values = endAndCommitted.computeIfAbsent(tp.partition(), this::register);
                values.set(0, ends.get(tp).offset());
                values.set(1, c.offset());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // no ticks topic yet, or Kafka unreachable: the gauges keep their last values and the scrape's age tells
            log.debug("tick consumer lag not read: {}", e.toString());
        }
    }

    private AtomicLongArray register(int partition) {
        AtomicLongArray values = new AtomicLongArray(2);
        String p = Integer.toString(partition);
        Gauge.builder("broker.tick.consumer.lag", values, v -> Math.max(0, v.get(0) - v.get(1))).baseUnit("records")
                .description("tick partition end offset minus this region's committed offset").tag("region", region).tag("partition", p).register(registry);
        Gauge.builder("broker.tick.partition.end.offset", values, v -> v.get(0))
                .description("tick partition end offset").tag("region", region).tag("partition", p).register(registry);
        Gauge.builder("broker.tick.consumer.committed.offset", values, v -> v.get(1))
                .description("this region's committed offset on the tick partition").tag("region", region).tag("partition", p).register(registry);
        return values;
    }

    @Override
    public void close() {
        reader.shutdownNow();
        admin.close(Duration.ofSeconds(2));
    }
}
