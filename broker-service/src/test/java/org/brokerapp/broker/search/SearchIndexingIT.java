package org.brokerapp.broker.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.brokerapp.broker.search.SearchFixture.await;
import static org.brokerapp.broker.search.SearchFixture.unchecked;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.stack.LocalStack;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The indexer against real Kafka and a real Elasticsearch 8.19 node per region. */
@LocalStackTest
class SearchIndexingIT {

    private final SearchFixture fx;

    SearchIndexingIT(LocalStack stack) {
        this.fx = new SearchFixture(stack);
    }

    @AfterEach
    void stopIndexers() {
        fx.close();
    }

    @Test
    void everyEventIsIndexedExactlyOnceAcrossAnIndexerRestartARedeliveryAndAFullReplay() throws Exception {
        String region = fx.region(0);
        String customer = "exactly-once-" + UUID.randomUUID().toString().substring(0, 8);
        ElasticsearchClient es = fx.client(region);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            orders.add(SearchFixture.order(customer, "IBM", i % 2 == 0 ? Side.BUY : Side.SELL, 1 + i % 7, "295.10", region, t0.plusMillis(i)));
        }
        fx.publish(region, orders.stream().map(SearchFixture::placed).toList());
        String group = "exactly-once-" + customer;

        SimpleMeterRegistry first = new SimpleMeterRegistry();
        OrderEventIndexer a = fx.startIndexer(region, group, first);
        await("some placements indexed", Duration.ofSeconds(90), () -> unchecked(() -> fx.orders(es, customer, null)) > 0);
        a.stop(); // mid-stream: whatever it had not committed is read again by the next one

        List<OrderEvent> decisions = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            decisions.add(SearchFixture.fill(orders.get(i), "295.00", t0.plusSeconds(5).plusMillis(i), region));
        }
        for (int i = 150; i < 200; i++) {
            decisions.add(SearchFixture.cancel(orders.get(i), t0.plusSeconds(6), region));
        }
        fx.publish(region, decisions);
        fx.startIndexer(region, group, new SimpleMeterRegistry());
        await("every event indexed after the restart", Duration.ofSeconds(120), () ->
                unchecked(() -> fx.orders(es, customer, "FILLED")) == 150 && unchecked(() -> fx.orders(es, customer, "CANCELLED")) == 50
                        && unchecked(() -> fx.trades(es, customer)) == 150);
        assertCounts(es, customer);

        // a redelivery (the broker publishing the same changes again) and a full replay by a fresh group change nothing
        fx.publish(region, decisions.subList(0, 40));
        fx.publish(region, orders.subList(0, 40).stream().map(SearchFixture::placed).toList());
        SimpleMeterRegistry replay = new SimpleMeterRegistry();
        fx.startIndexer(region, "replay-" + customer, replay);
        long everything = recordsIn(region);
        await("the replay read the whole topic", Duration.ofSeconds(180),
                () -> replay.get("broker.search.events.indexed").counter().count() >= everything);
        assertCounts(es, customer);
        assertThat(replay.get("broker.search.events.rejected").counter().count()).isZero();
        assertThat(replay.get("broker.search.indexing.lag").timer().count()).isGreaterThanOrEqualTo(everything);
    }

    private void assertCounts(ElasticsearchClient es, String customer) throws Exception {
        assertThat(fx.orders(es, customer, null)).as("one document per order").isEqualTo(300);
        assertThat(fx.orders(es, customer, "FILLED")).isEqualTo(150);
        assertThat(fx.orders(es, customer, "CANCELLED")).isEqualTo(50);
        assertThat(fx.orders(es, customer, "OPEN")).as("a replayed PLACED never takes a filled order back").isEqualTo(100);
        assertThat(fx.trades(es, customer)).as("one trade per fill").isEqualTo(150);
    }

    @Test
    void whileElasticsearchIsDownPublishingNeverWaitsAndEveryEventIsIndexedOnceItIsBack() throws Exception {
        String region = fx.region(1);
        String customer = "outage-" + UUID.randomUUID().toString().substring(0, 8);
        ElasticsearchClient es = fx.client(region);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        fx.startIndexer(region, "outage-" + customer, registry);
        Instant t0 = Instant.now();
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            orders.add(SearchFixture.order(customer, "BHP.AX", Side.BUY, 10, "45.50", region, t0.plusMillis(i)));
        }
        fx.publish(region, orders.subList(0, 100).stream().map(SearchFixture::placed).toList());
        await("the first 100 indexed", Duration.ofSeconds(60), () -> unchecked(() -> fx.orders(es, customer, null)) == 100);

        fx.stack.stopElasticsearch(region);
        long outageStart = System.nanoTime();
        long slowestPublishMs = 0;
        for (int second = 0; second < 30; second++) { // ~30 s of events while the node is down
            long start = System.nanoTime();
            int i = 100 + second * 10;
            List<OrderEvent> batch = new ArrayList<>(orders.subList(i, i + 10).stream().map(SearchFixture::placed).toList());
            batch.add(SearchFixture.fill(orders.get(second), "45.40", Instant.now(), region));
            fx.publish(region, batch);
            slowestPublishMs = Math.max(slowestPublishMs, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            Thread.sleep(Math.max(0, 1_000 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)));
        }
        assertThat(registry.get("broker.search.bulk.failures").counter().count()).as("the indexer saw the outage").isPositive();
        assertThat(slowestPublishMs).as("publishing never waited for the indexer").isLessThan(5_000);
        System.out.printf("outage of %d s, slowest publish %d ms, failed bulks %.0f%n",
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - outageStart), slowestPublishMs,
                registry.get("broker.search.bulk.failures").counter().count());

        fx.stack.startElasticsearch(region);
        await("every event indexed after the restart", Duration.ofSeconds(120), () ->
                unchecked(() -> fx.orders(es, customer, null)) == 400 && unchecked(() -> fx.orders(es, customer, "FILLED")) == 30
                        && unchecked(() -> fx.trades(es, customer)) == 30);
    }

    @Test
    void aCustomersSearchAnswersFromEveryRegionNamesTheOnesThatDidNotAndAggregationsMatchWhatWasPublished() throws Exception {
        String east = fx.region(0);
        String west = fx.region(1);
        String alice = "fan-a-" + UUID.randomUUID().toString().substring(0, 8);
        String bob = "fan-b-" + UUID.randomUUID().toString().substring(0, 8);
        String suffix = UUID.randomUUID().toString().substring(0, 4).toUpperCase().replaceAll("[^A-Z]", "X");
        String us = "U" + suffix;
        String au = "A" + suffix + ".AX";
        fx.startIndexer(east, "fan-" + alice + "-" + east, new SimpleMeterRegistry());
        fx.startIndexer(west, "fan-" + alice + "-" + west, new SimpleMeterRegistry());
        // the previous minute: every fill time is in the past, so fill latencies (durable - tick) are positive
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(1, ChronoUnit.MINUTES);

        List<OrderEvent> eastEvents = new ArrayList<>();
        List<OrderEvent> westEvents = new ArrayList<>();
        List<OrderEvent> fills = new ArrayList<>();
        String[] prices = {"101.25", "100.75", "102.10", "99.95", "100.00"};
        for (int i = 0; i < 20; i++) {
            String customer = i % 4 == 0 ? bob : alice;
            Order o = SearchFixture.order(customer, us, Side.BUY, 1 + i, prices[i % 5], east, minute.plusMillis(i));
            OrderEvent fill = SearchFixture.fill(o, prices[i % 5], minute.plusSeconds(1 + i), east);
            eastEvents.addAll(List.of(SearchFixture.placed(o), fill));
            fills.add(fill);
        }
        for (int i = 0; i < 10; i++) {
            // placed in the east, filled in the west: each region knows the order, only the west the trade
            Order o = SearchFixture.order(alice, au, Side.SELL, 100 + i, "45." + (10 + i), east, minute.plusMillis(100 + i));
            OrderEvent fill = SearchFixture.fill(o, "45." + (10 + i), minute.plusSeconds(30 + i), west);
            eastEvents.add(SearchFixture.placed(o));
            westEvents.add(fill);
            fills.add(fill);
        }
        fx.publish(east, eastEvents);
        fx.publish(west, westEvents);
        ElasticsearchClient eastEs = fx.client(east);
        ElasticsearchClient westEs = fx.client(west);
        await("both regions indexed", Duration.ofSeconds(90), () -> unchecked(() -> fx.trades(eastEs, alice)) == 15
                && unchecked(() -> fx.trades(westEs, alice)) == 10 && unchecked(() -> fx.trades(eastEs, bob)) == 5);

        var executor = Executors.newCachedThreadPool();
        try {
            FanOutSearch search = new FanOutSearch(List.of(new RegionSearch(east, eastEs), new RegionSearch(west, westEs),
                    new RegionSearch("nowhere", SearchConfiguration.client("http://127.0.0.1:1", fx.properties(east, "unused")))), Duration.ofSeconds(5), executor);

            FanOutSearch.Page page = search.trades(new SearchQuery(alice, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), Optional.empty(), 1, 100));
            assertThat(page.items()).hasSize(25).allSatisfy(t -> assertThat(t.get("customerId")).isEqualTo(alice));
            assertThat(page.regions().answered()).containsExactlyInAnyOrder(east, west);
            assertThat(page.regions().missing()).extracting(SearchRegions.Missing::region).containsExactly("nowhere");
            assertThat(page.items().get(0).get("symbol")).as("newest first").isEqualTo(au);

            FanOutSearch.Page secondPage = search.trades(new SearchQuery(alice, Optional.of(us), Optional.of("BUY"), Optional.empty(), Optional.empty(),
                    Optional.of(minute), Optional.of(minute.plusSeconds(60)), 2, 10));
            assertThat(secondPage.items()).hasSize(5);

            SearchQuery aliceAu = new SearchQuery(alice, Optional.of(au), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), 1, 50);
            // each region indexes its own events: the fills' order documents may land a moment after their trades counted above
            await("the fills' order documents indexed in " + west, Duration.ofSeconds(30), () -> search.orders(aliceAu).items().stream()
                    .filter(o -> "FILLED".equals(o.get("status"))).count() == 10);
            FanOutSearch.Page aliceOrders = search.orders(aliceAu);
            assertThat(aliceOrders.items()).as("placed in one region, filled in the other: shown once, filled").hasSize(10)
                    .allSatisfy(o -> assertThat(o.get("status")).isEqualTo("FILLED"));
            // bob's orders all filled; as with alice's, an order document may show PLACED a moment longer than its trade
            SearchQuery bobsOpen = new SearchQuery(bob, Optional.empty(), Optional.empty(), Optional.of("OPEN"),
                    Optional.empty(), Optional.empty(), Optional.empty(), 1, 50);
            await("no open order of bob's left in the index", Duration.ofSeconds(30), () -> search.orders(bobsOpen).items().isEmpty());
            assertThat(search.orders(bobsOpen).items()).isEmpty();

            Analytics analytics = search.analytics(minute, minute.plusSeconds(60), Duration.ofMinutes(1), 100);
            assertThat(analytics.regions().missing()).hasSize(1);
            for (String symbol : List.of(us, au)) {
                List<OrderEvent> published = fills.stream().filter(f -> f.symbol().equals(symbol)).toList();
                long quantity = published.stream().mapToLong(OrderEvent::quantity).sum();
                BigDecimal notional = published.stream().map(OrderEvent::notional).reduce(BigDecimal.ZERO, BigDecimal::add);
                Analytics.Vwap vwap = analytics.vwap().stream().filter(v -> v.symbol().equals(symbol)).findFirst().orElseThrow();
                assertThat(vwap.trades()).isEqualTo(published.size());
                assertThat(vwap.quantity()).isEqualTo(quantity);
                assertThat(vwap.vwap()).isEqualByComparingTo(notional.divide(BigDecimal.valueOf(quantity), 4, RoundingMode.HALF_EVEN));
                Analytics.Volume volume = analytics.volume().stream().filter(v -> v.symbol().equals(symbol)).findFirst().orElseThrow();
                assertThat(volume.region()).isEqualTo(symbol.equals(us) ? east : west);
                assertThat(volume.notional()).isEqualByComparingTo(notional);
                assertThat(analytics.topSymbols()).extracting(Analytics.TopSymbol::symbol).contains(symbol);
            }
            Map<String, Analytics.Latency> latency = new java.util.HashMap<>();
            analytics.fillLatency().forEach(l -> latency.put(l.region(), l));
            assertThat(latency.get(east).trades()).isGreaterThanOrEqualTo(20);
            assertThat(latency.get(east).p50Ms()).isNotNull().isPositive();
        } finally {
            executor.shutdownNow();
        }
    }

    private long recordsIn(String region) throws Exception {
        try (Admin admin = Admin.create(fx.stack.kafkaClientConfig(region, KafkaAccess.ADMIN))) {
            var partitions = admin.describeTopics(List.of(SearchFixture.TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS).get(SearchFixture.TOPIC).partitions();
            Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
            partitions.forEach(p -> latest.put(new TopicPartition(SearchFixture.TOPIC, p.partition()), OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream().mapToLong(o -> o.offset()).sum();
        }
    }
}
