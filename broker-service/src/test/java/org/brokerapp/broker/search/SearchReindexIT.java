package org.brokerapp.broker.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.brokerapp.broker.search.SearchFixture.await;
import static org.brokerapp.broker.search.SearchFixture.unchecked;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.brokerapp.api.Side;
import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.schema.BrokerCql;
import org.brokerapp.broker.schema.SchemaMigrations;
import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.stack.LocalStack;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A reindex from the Cassandra ledger while orders keep flowing (each written to the ledger, then
 * published, as the broker does): reads never go down or back, and afterwards the new version holds
 * every order exactly once, in its latest state.
 */
@LocalStackTest
class SearchReindexIT {

    private final SearchFixture fx;
    private final LocalStack stack;

    SearchReindexIT(LocalStack stack) {
        this.stack = stack;
        this.fx = new SearchFixture(stack);
    }

    @AfterEach
    void stop() {
        fx.close();
    }

    @Test
    void aReindexUnderEventFlowSwitchesTheAliasWithNoDowntimeAndNoLostEvent() throws Exception {
        String region = fx.region(0);
        String customer = "reindex-" + UUID.randomUUID().toString().substring(0, 8);
        String keyspace = "search_reindex";
        ElasticsearchClient es = fx.client(region);
        try (CqlSession session = stack.cqlSession(region)) {
            new SchemaMigrations(session, keyspace, stack.regions().networkTopologyReplication(), "search test").migrate();
            BrokerCql cql = new BrokerCql(session, keyspace);
            PreparedStatement place = session.prepare("INSERT INTO " + keyspace + ".customer_ledger (customer_id, order_id, client_order_id, symbol, "
                    + "exchange, side, order_type, quantity, limit_price, reserved_cash, status, placed_region, placed_at) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'OPEN', ?, ?)");
            PreparedStatement fill = session.prepare("UPDATE " + keyspace + ".customer_ledger SET fill_price = ?, filled_at = ?, filled_by = ? "
                    + "WHERE customer_id = ? AND order_id = ?");
            fx.startIndexer(region, "reindex-" + customer, new SimpleMeterRegistry());
            new SearchIndices(es).ensure(); // as the indexer does at start (idempotent): a fresh node has no alias yet
            int before = new SearchIndices(es).readVersion();

            // the history: 200 orders, every second one filled, in the ledger and indexed
            List<OrderEvent> history = new ArrayList<>();
            Instant t0 = Instant.now().minusSeconds(60);
            for (int i = 0; i < 200; i++) {
                Order o = SearchFixture.order(customer, "IBM", Side.BUY, 1 + i % 5, "290.00", region, t0.plusMillis(i));
                write(session, place, fill, o, i % 2 == 0, region);
                history.add(SearchFixture.placed(o));
                if (i % 2 == 0) {
                    history.add(SearchFixture.fill(o, "289.50", o.placedAt().plusSeconds(1), region));
                }
            }
            fx.publish(region, history);
            await("history indexed", Duration.ofSeconds(90), () -> unchecked(() -> fx.orders(es, customer, null)) == 200);

            // live flow during the reindex, and a reader that must never see the count drop
            AtomicBoolean flowing = new AtomicBoolean(true);
            AtomicLong placedLive = new AtomicLong();
            AtomicLong lowestSeenAfterStart = new AtomicLong(Long.MAX_VALUE);
            AtomicLong readFailures = new AtomicLong();
            Thread flow = new Thread(() -> {
                int i = 0;
                while (flowing.get()) {
                    Order o = SearchFixture.order(customer, "MSFT", Side.SELL, 3, "410.00", region, Instant.now());
                    boolean filled = i++ % 3 == 0;
                    write(session, place, fill, o, filled, region);
                    List<OrderEvent> events = new ArrayList<>(List.of(SearchFixture.placed(o)));
                    if (filled) {
                        events.add(SearchFixture.fill(o, "410.00", o.placedAt().plusMillis(50), region));
                    }
                    fx.publish(region, events);
                    placedLive.incrementAndGet();
                    sleep(50);
                }
            }, "event-flow");
            Thread reader = new Thread(() -> {
                long last = 0;
                while (flowing.get()) {
                    try {
                        long now = fx.orders(es, customer, null);
                        if (now < last) {
                            lowestSeenAfterStart.set(Math.min(lowestSeenAfterStart.get(), now));
                        }
                        last = Math.max(last, now);
                    } catch (Exception e) {
                        readFailures.incrementAndGet();
                    }
                    sleep(100);
                }
            }, "reader");
            flow.start();
            reader.start();
            Reindexer reindexer = new Reindexer(es, new CustomerLedger(session, cql), anyone -> Optional.empty(), region, Duration.ofMillis(2_500));
            Reindexer.Report report = reindexer.run();
            sleep(3_000);
            flowing.set(false);
            flow.join();
            reader.join();

            assertThat(report.fromVersion()).isEqualTo(before);
            assertThat(report.toVersion()).isEqualTo(before + 1);
            assertThat(new SearchIndices(es).readVersion()).isEqualTo(before + 1);
            assertThat(new SearchIndices(es).writeVersions()).containsExactly(before + 1);
            assertThat(lowestSeenAfterStart.get()).as("reads never went back (no window without documents)").isEqualTo(Long.MAX_VALUE);
            assertThat(readFailures.get()).as("reads never failed during the switch").isZero();
            long live = placedLive.get();
            assertThat(live).as("events flowed during the reindex").isGreaterThan(10);
            long fillsLive = (live + 2) / 3;
            await("every order, history and live, in the new version exactly once", Duration.ofSeconds(60), () ->
                    unchecked(() -> fx.orders(es, customer, null)) == 200 + live
                            && unchecked(() -> fx.orders(es, customer, "FILLED")) == 100 + fillsLive
                            && unchecked(() -> fx.trades(es, customer)) == 100 + fillsLive);
            System.out.printf("reindex %s; %d live orders during it%n", report, live);
        }
    }

    private static void write(CqlSession session, PreparedStatement place, PreparedStatement fill, Order o, boolean filled, String region) {
        session.execute(place.bind(o.customerId(), o.orderId(), o.clientOrderId(), o.symbol(), o.exchange(), o.side().name(), o.type().name(),
                o.quantity(), o.limitPrice(), o.reservedCash(), o.placedRegion(), o.placedAt()));
        if (filled) {
            session.execute(fill.bind(o.limitPrice(), o.placedAt().plusMillis(50), region, o.customerId(), o.orderId()));
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
