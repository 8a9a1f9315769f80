package org.brokerapp.broker.search;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventCodec;
import org.brokerapp.infra.host.Await;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.servers.SearchLogins;
import org.brokerapp.infra.stack.LocalStack;

/**
 * Search tests' access to the real stack: each region's Elasticsearch node (started on first
 * use), its Kafka, an indexer as the broker runs it, and events published as the broker will.
 */
final class SearchFixture implements AutoCloseable {

    /** The events these tests publish themselves: a topic of their own, so the running brokers' relays never see them. */
    static final String TOPIC = "search-test-events";

    final LocalStack stack;
    private final OrderEventCodec codec = new OrderEventCodec();
    private final List<OrderEventIndexer> indexers = new ArrayList<>();
    private final List<ElasticsearchClient> clients = new ArrayList<>();

    SearchFixture(LocalStack stack) {
        this.stack = stack;
        stack.startSearch(new Progress(System.out));
        for (String region : stack.regions().names()) {
            try (Admin admin = Admin.create(stack.kafkaClientConfig(region, KafkaAccess.ADMIN))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 6, (short) 1))).all().get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException(e);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    String region(int n) {
        return stack.regions().names().get(n);
    }

    ElasticsearchClient client(String region) {
        ElasticsearchClient client = SearchConfiguration.client(stack.elasticsearchUrl(region), properties(region, "unused"));
        clients.add(client);
        return client;
    }

    SearchProperties properties(String region, String groupId) {
        return new SearchProperties(Map.of(region, stack.elasticsearchUrl(region)),
                new SearchProperties.Indexer(true, TOPIC, groupId, 500, Duration.ofMillis(100), Duration.ofSeconds(2), Duration.ofMillis(500), Duration.ofMillis(100)),
                Duration.ofSeconds(3), Duration.ofDays(30), 20, SearchLogins.BROKER, stack.searchLogins().password(SearchLogins.BROKER), "");
    }

    /** An indexer of {@code region} in consumer group {@code groupId}, started; stopped by {@link #close}. */
    OrderEventIndexer startIndexer(String region, String groupId, SimpleMeterRegistry registry) {
        OrderEventIndexer indexer = new OrderEventIndexer(client(region), properties(region, groupId), region,
                stack.kafkaClientConfig(region, KafkaAccess.ADMIN), registry, java.time.Clock.systemUTC());
        indexer.start();
        indexers.add(indexer);
        return indexer;
    }

    void publish(String region, List<OrderEvent> events) {
        Map<String, Object> config = stack.kafkaClientConfig(region, KafkaAccess.ADMIN);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer())) {
            for (OrderEvent e : events) {
                producer.send(new ProducerRecord<>(TOPIC, e.key(), codec.encode(e)));
            }
            producer.flush();
        }
    }

    /** An order of {@code customer} placed in {@code region}: its PLACED event; fill or cancel it with the helpers below. */
    static Order order(String customer, String symbol, Side side, long quantity, String price, String region, Instant placedAt) {
        return new Order(UUID.randomUUID(), customer, "c-" + UUID.randomUUID(), symbol, symbol.endsWith(".AX") ? "ASX" : "NYSE", side,
                OrderType.LIMIT, quantity, new BigDecimal(price), null, side == Side.BUY ? new BigDecimal(price).multiply(BigDecimal.valueOf(quantity)) : BigDecimal.ZERO,
                OrderStatus.OPEN, region, placedAt, null, null, null, null);
    }

    static OrderEvent placed(Order o) {
        return OrderEvent.placed(o, o.placedAt().plusMillis(2), o.placedRegion());
    }

    static Order filled(Order o, String price, Instant at, String by) {
        return new Order(o.orderId(), o.customerId(), o.clientOrderId(), o.symbol(), o.exchange(), o.side(), o.type(), o.quantity(), o.limitPrice(),
                o.stopPrice(), o.reservedCash(), OrderStatus.FILLED, o.placedRegion(), o.placedAt(), new BigDecimal(price), at, by, null);
    }

    static OrderEvent fill(Order o, String price, Instant at, String by) {
        // tick 7 ms before the fill, durable 3 ms after it: a fill latency of 10 ms whenever the test sets the fill's time
        return OrderEvent.filled(filled(o, price, at, by), at.minusMillis(7), at.minusMillis(5), at.plusMillis(3), by);
    }

    static OrderEvent cancel(Order o, Instant at, String by) {
        Order c = new Order(o.orderId(), o.customerId(), o.clientOrderId(), o.symbol(), o.exchange(), o.side(), o.type(), o.quantity(),
                o.limitPrice(), o.stopPrice(), o.reservedCash(), OrderStatus.CANCELLED, o.placedRegion(), o.placedAt(), null, null, null, at);
        return OrderEvent.cancelled(c, Instant.now(), by);
    }

    /** Documents of {@code customer} in what searches read now (orders alias, trades of the read version). */
    long orders(ElasticsearchClient client, String customer, String status) throws IOException {
        client.indices().refresh(r -> r.index("orders-v*").allowNoIndices(true));
        return client.count(c -> c.index(SearchIndices.ORDERS).query(Query.of(q -> q.bool(b -> b
                .filter(f -> f.term(t -> t.field("customerId").value(customer)))
                .filter(f -> status == null ? f.matchAll(m -> m) : f.term(t -> t.field("status").value(status))))))).count();
    }

    long trades(ElasticsearchClient client, String customer) throws IOException {
        int version = new SearchIndices(client).readVersion();
        client.indices().refresh(r -> r.index("trades-v*").allowNoIndices(true));
        return client.count(c -> c.index(SearchIndices.tradesPattern(version)).allowNoIndices(true).ignoreUnavailable(true)
                .query(Query.of(q -> q.term(t -> t.field("customerId").value(customer))))).count();
    }

    /** Until {@code condition} holds; a condition that throws (the node still starting) is "not yet". */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        Await.await(what, timeout).ignoreExceptions().until(condition::getAsBoolean);
    }

    static long unchecked(IoCall call) {
        try {
            return call.get();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    interface IoCall {
        long get() throws IOException;
    }

    void stopIndexers() {
        indexers.forEach(OrderEventIndexer::stop);
        indexers.clear();
    }

    @Override
    public void close() {
        stopIndexers();
        for (ElasticsearchClient c : clients) {
            try {
                c._transport().close();
            } catch (IOException e) {
                // closing
            }
        }
    }
}
