package org.brokerapp.broker.search;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.Refresh;
import co.elastic.clients.elasticsearch._types.VersionType;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.MgetResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import co.elastic.clients.elasticsearch.core.bulk.BulkResponseItem;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.brokerapp.broker.events.MalformedOrderEventException;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventCodec;
import org.brokerapp.broker.system.KafkaConsumers;
import org.brokerapp.broker.system.LoopThread;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes this region's {@value OrderEvent#TOPIC} and bulk-indexes it into this region's
 * Elasticsearch, off the trading path: the broker publishes after the write is durable and never
 * waits for this loop.
 *
 * <p>Exactly-once in effect, from at-least-once delivery: offsets are committed only after a
 * bulk succeeded, and every write is idempotent: order documents have the order id as id and an
 * external version that only moves forward ({@link SearchDocuments#rank}), trade documents have
 * the order id as id in the index of the fill's own day. A replay or a redelivery after a crash
 * rewrites the same documents.
 *
 * <p>While Elasticsearch is down or refuses a bulk, the batch is retried with exponential
 * backoff ({@code backoff-min} doubling to {@code backoff-max}); the consumer pauses its
 * partitions meanwhile (so it keeps its group membership without reading further) and resumes
 * where it was. A document Elasticsearch rejects for what it is (a 4xx other than a version
 * conflict: a mapping bug) is counted and logged, not retried forever.
 *
 * <p>Bulks use {@code refresh=wait_for}: when one returns, its documents are searchable, so
 * {@code broker_search_indexing_lag_seconds} (now minus the event's {@code durableAt}) is the
 * real durable-to-searchable lag.
 */
public final class OrderEventIndexer extends LoopThread {

    private static final Logger log = LoggerFactory.getLogger(OrderEventIndexer.class);
    private static final Duration RETENTION_INTERVAL = Duration.ofHours(1);

    private final ElasticsearchClient client;
    private final SearchIndices indices;
    private final SearchProperties.Indexer settings;
    private final Duration tradeRetention;
    private final Properties consumerConfig;
    private final OrderEventCodec codec = new OrderEventCodec();
    private final Clock clock;
    private final Timer lag;
    private final Counter indexed;
    private final Counter bulkFailures;
    private final Counter rejected;
    private final Counter malformed;

    private volatile KafkaConsumer<String, byte[]> consumer;
    private volatile boolean revoked;
    private List<Integer> writeVersions = List.of();
    private Instant writeVersionsReadAt = Instant.MIN;
    private Instant retentionCheckedAt = Instant.MIN;
    private final MeterRegistry registry;

    public OrderEventIndexer(ElasticsearchClient client, SearchProperties properties, String region, Map<String, Object> kafka,
                             MeterRegistry registry, Clock clock) {
        super("search-indexer", 200);
        this.client = client;
        this.indices = new SearchIndices(client);
        this.settings = properties.indexer();
        this.tradeRetention = properties.tradeRetention();
        this.clock = clock;
        this.registry = registry;
        this.consumerConfig = new Properties();
        consumerConfig.putAll(kafka);
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, settings.groupId().isBlank() ? defaultGroup(region) : settings.groupId());
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, settings.maxBatch());
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, "search-indexer-" + region);
        if (!settings.batchWait().isZero()) {
            // Kafka holds each fetch until the wait is over (or a bulk's worth is there): one answer per interval, not per event
            consumerConfig.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1 << 20);
            consumerConfig.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int) settings.batchWait().toMillis());
        }
        this.lag = Timer.builder("broker.search.indexing.lag")
                .description("event durable in Cassandra (durableAt) to searchable in this region's Elasticsearch")
                .tag("region", region).publishPercentileHistogram().publishPercentiles(0.5, 0.99)
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofMinutes(10)).register(registry);
        this.indexed = Counter.builder("broker.search.events.indexed").description("order events indexed (bulk acknowledged)")
                .tag("region", region).register(registry);
        this.bulkFailures = Counter.builder("broker.search.bulk.failures").description("bulk requests failed and retried (Elasticsearch down or overloaded)")
                .tag("region", region).register(registry);
        this.rejected = Counter.builder("broker.search.events.rejected").description("documents Elasticsearch refused for their content (not retried)")
                .tag("region", region).register(registry);
        this.malformed = Counter.builder("broker.search.events.malformed").description("records on order-events that are not order events (skipped)")
                .tag("region", region).register(registry);
    }

    /** The consumer group of a region's indexers unless configured otherwise. */
    public static String defaultGroup(String region) {
        return "search-indexer-" + region;
    }

    @Override
    protected void loop() {
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new ByteArrayDeserializer());
             KafkaClientMetrics clientMeters = KafkaConsumers.metered(c, registry)) {
            consumer = c;
            c.subscribe(List.of(settings.topic()), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    if (!partitions.isEmpty()) {
                        revoked = true;
                    }
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    // positions start at the committed offsets: what was not committed is read again
                }
            });
            awaitIndicesReady(c);
            while (isRunning()) {
                ConsumerRecords<String, byte[]> records = c.poll(Duration.ofMillis(500));
                revoked = false;
                if (!records.isEmpty()) {
                    indexAndCommit(c, records);
                }
                maintain();
            }
        } catch (WakeupException stopping) {
            // stop() woke the consumer
        } catch (RuntimeException e) {
            log.error("search indexer stopped", e);
        } finally {
            consumer = null;
        }
    }

    private void awaitIndicesReady(KafkaConsumer<String, byte[]> c) {
        Duration backoff = settings.backoffMin();
        while (isRunning()) {
            try {
                indices.ensure();
                return;
            } catch (IOException | RuntimeException e) {
                log.warn("Elasticsearch not ready for the index templates ({}); retrying in {} ms", e.getMessage(), backoff.toMillis());
                c.poll(Duration.ZERO);
                sleep(backoff);
                backoff = next(backoff);
            }
        }
    }

    private void indexAndCommit(KafkaConsumer<String, byte[]> c, ConsumerRecords<String, byte[]> records) {
        List<OrderEvent> events = new ArrayList<>(records.count());
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            try {
                OrderEvent event = codec.decode(r.value());
                if (event.type() != OrderEvent.Type.CANCEL_REQUESTED) { // a request, not a change of the order: nothing to show
                    events.add(event);
                }
            } catch (MalformedOrderEventException e) {
                malformed.increment();
                log.warn("skipping record {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            }
            offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
        }
        Set<TopicPartition> paused = c.assignment();
        Duration backoff = settings.backoffMin();
        boolean pausedNow = false;
        try {
            while (isRunning()) {
                try {
                    bulk(events);
                    if (revoked) {
                        rewindToCommitted(c);
                        return;
                    }
                    c.commitSync(offsets);
                    return;
                } catch (IOException | RuntimeException e) {
                    bulkFailures.increment();
                    log.warn("bulk of {} events failed ({}); retrying in {} ms, partitions paused", events.size(), e.getMessage(), backoff.toMillis());
                    if (!pausedNow) {
                        c.pause(paused);
                        pausedNow = true;
                    }
                    sleep(backoff);
                    c.poll(Duration.ZERO); // paused: returns nothing, keeps this member in the group
                    if (revoked) {
                        rewindToCommitted(c);
                        return;
                    }
                    backoff = next(backoff);
                }
            }
        } finally {
            if (pausedNow) {
                c.resume(c.assignment());
            }
        }
    }

    /** A rebalance took partitions mid-batch: forget the batch, start again from what is committed (the writes were idempotent). */
    private void rewindToCommitted(KafkaConsumer<String, byte[]> c) {
        Set<TopicPartition> assigned = c.assignment();
        Map<TopicPartition, OffsetAndMetadata> committed = c.committed(assigned);
        for (TopicPartition p : assigned) {
            OffsetAndMetadata at = committed.get(p);
            if (at != null) {
                c.seek(p, at);
            } else {
                c.seekToBeginning(List.of(p));
            }
        }
        revoked = false;
    }

    private void bulk(List<OrderEvent> events) throws IOException {
        if (events.isEmpty()) {
            return;
        }
        List<Integer> versions = currentWriteVersions();
        Map<String, Map<String, Object>> placements = placementsOf(events);
        List<BulkOperation> operations = new ArrayList<>();
        for (OrderEvent e : events) {
            Map<String, Object> placement = placements.get(e.orderId().toString());
            for (int version : versions) {
                operations.add(orderOperation(SearchIndices.ordersIndex(version), e, placement));
                if (e.type() == OrderEvent.Type.FILLED) {
                    operations.add(tradeOperation(SearchIndices.tradesIndex(version, e.filledAt()), e, placement));
                }
            }
        }
        BulkResponse response = client.bulk(b -> b.operations(operations).refresh(Refresh.WaitFor));
        if (response.errors()) {
            List<String> retriable = new ArrayList<>();
            for (BulkResponseItem item : response.items()) {
                if (item.error() == null || item.status() == 409) {
                    continue; // done, or a later state of the order is there already
                }
                if (item.status() == 429 || item.status() >= 500) {
                    retriable.add(item.index() + "/" + item.id() + ": " + item.error().reason());
                } else {
                    rejected.increment();
                    log.error("Elasticsearch refused {}/{} ({}): {}", item.index(), item.id(), item.status(), item.error().reason());
                }
            }
            if (!retriable.isEmpty()) {
                throw new IllegalStateException(retriable.size() + " documents not written, first: " + retriable.get(0));
            }
        }
        Instant now = clock.instant();
        for (OrderEvent e : events) {
            Duration d = Duration.between(e.durableAt(), now);
            lag.record(d.isNegative() ? Duration.ZERO : d);
        }
        indexed.increment(events.size());
    }

    /**
     * The placement fields of the orders whose fill or cancel in this batch lacks them (decided by
     * the matcher): from the order's PLACED event earlier in the batch, else from its document.
     * An order placed in another region has no document here; the fan-out completes it from that
     * region's document.
     */
    private Map<String, Map<String, Object>> placementsOf(List<OrderEvent> events) throws IOException {
        Map<String, Map<String, Object>> placements = new HashMap<>();
        Set<String> wanted = new LinkedHashSet<>();
        for (OrderEvent e : events) {
            String id = e.orderId().toString();
            if (e.type() == OrderEvent.Type.PLACED) {
                placements.put(id, SearchDocuments.order(e));
            } else if (e.placedAt() == null && !placements.containsKey(id)) {
                wanted.add(id);
            }
        }
        if (!wanted.isEmpty()) {
            @SuppressWarnings("rawtypes")
            MgetResponse<Map> found = client.mget(m -> m.index(SearchIndices.ORDERS).ids(List.copyOf(wanted)), Map.class);
            for (var item : found.docs()) {
                if (item.isResult() && item.result().found() && item.result().source() != null) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> source = item.result().source();
                    placements.put(item.result().id(), source);
                }
            }
        }
        return placements;
    }

    static BulkOperation orderOperation(String index, OrderEvent e) {
        return orderOperation(index, e, null);
    }

    static BulkOperation orderOperation(String index, OrderEvent e, Map<String, Object> placement) {
        return BulkOperation.of(op -> op.index(i -> i.index(index).id(e.orderId().toString())
                .version(SearchDocuments.rank(e.type())).versionType(VersionType.ExternalGte)
                .document(SearchDocuments.withPlacement(SearchDocuments.order(e), placement))));
    }

    static BulkOperation tradeOperation(String index, OrderEvent e) {
        return tradeOperation(index, e, null);
    }

    static BulkOperation tradeOperation(String index, OrderEvent e, Map<String, Object> placement) {
        return BulkOperation.of(op -> op.index(i -> i.index(index).id(e.orderId().toString())
                .document(SearchDocuments.withPlacement(SearchDocuments.trade(e), placement))));
    }

    private List<Integer> currentWriteVersions() throws IOException {
        Instant now = clock.instant();
        if (writeVersions.isEmpty() || writeVersionsReadAt.plus(settings.aliasRefresh()).isBefore(now)) {
            List<Integer> read = indices.writeVersions();
            if (read.isEmpty()) {
                throw new IllegalStateException("no index behind " + SearchIndices.ORDERS_INDEXING);
            }
            writeVersions = read;
            writeVersionsReadAt = now;
        }
        return writeVersions;
    }

    private void maintain() {
        Instant now = clock.instant();
        if (retentionCheckedAt.plus(RETENTION_INTERVAL).isAfter(now)) {
            return;
        }
        retentionCheckedAt = now;
        try {
            List<String> deleted = indices.applyRetention(now, tradeRetention.toDays());
            if (!deleted.isEmpty()) {
                log.info("trade retention ({} days): deleted {}", tradeRetention.toDays(), deleted);
            }
        } catch (IOException | RuntimeException e) {
            log.warn("trade retention check failed: {}", e.getMessage());
        }
    }

    private Duration next(Duration backoff) {
        Duration doubled = backoff.multipliedBy(2);
        return doubled.compareTo(settings.backoffMax()) > 0 ? settings.backoffMax() : doubled;
    }

    private void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    protected void wake() {
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }
}
