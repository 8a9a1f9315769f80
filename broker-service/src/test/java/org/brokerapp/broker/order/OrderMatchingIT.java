package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Orders placed over HTTP, matched on ticks from Kafka, settled in Cassandra: both regions, all real. */
@BrokersTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OrderMatchingIT {

    private static final String HOME = "us-east-1";
    private static final String AWAY = "ap-southeast-2";
    private static final Duration SETTLE = Duration.ofSeconds(15);

    private final Brokers brokers;
    private final TestSession aliceHome;
    private final TestSession aliceAway;
    private final TickPublisher homeTicks;

    OrderMatchingIT(Brokers brokers) {
        this.brokers = brokers;
        this.aliceHome = brokers.client(HOME, "alice", "alice-pw");
        this.aliceAway = brokers.client(AWAY, "alice", "alice-pw");
        this.homeTicks = brokers.ticks(HOME);
    }

    @AfterAll
    void closeTicks() {
        homeTicks.close();
    }

    @ParameterizedTest(name = "{1} {0} at {4}: a tick at {5} leaves it open, a tick at {6} fills it")
    @CsvSource(textBlock = """
            LIMIT, BUY,  JPM,  NYSE,   300.00, 300.01, 300.00
            LIMIT, SELL, AAPL, NASDAQ, 230.00, 229.99, 230.00
            STOP,  BUY,  XOM,  NYSE,   115.00, 114.99, 115.00
            STOP,  SELL, MSFT, NASDAQ, 480.00, 480.01, 480.00
            """)
    void eachOrderTypeAndSideFillsExactlyAtItsBoundaryAndNotOneCentBefore(String type, String side, String symbol, String exchange,
                                                                          String price, String miss, String hit) {
        Reply placed = aliceHome.place(order(type, side, symbol, 10, price));
        assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
        String orderId = placed.text("orderId");

        homeTicks.tick(symbol, exchange, miss);
        awaitLastPrice(aliceHome, symbol, miss);
        sleep(300);
        assertThat(aliceHome.get("/api/orders/" + orderId).text("status")).isEqualTo("OPEN");

        homeTicks.tick(symbol, exchange, hit);
        Reply filled = awaitStatus(aliceHome, orderId, "FILLED");
        assertThat(new BigDecimal(filled.text("fillPrice"))).isEqualByComparingTo(hit);
        assertThat(filled.text("filledBy")).isEqualTo(HOME);
    }

    @Test
    void anOrderPlacedInSydneyForANyseSymbolIsFilledInNorthVirginiaOnANyseTick() {
        Reply placed = aliceAway.place(order("LIMIT", "BUY", "KO", 5, "70.00"));
        assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
        assertThat(placed.text("placedRegion")).isEqualTo(AWAY);
        String orderId = placed.text("orderId");
        Instant placedAt = Instant.now();

        // a tick every 100 ms until the home region has the order and fills it
        Reply filled = Await.until("filled by the home region", SETTLE, () -> {
            homeTicks.tick("KO", "NYSE", "70.00");
            sleep(100);
            return aliceHome.get("/api/orders/" + orderId);
        }, r -> r.status() == 200 && r.text("status").equals("FILLED"));
        assertThat(filled.text("filledBy")).isEqualTo(HOME);
        Duration matchable = Duration.between(placedAt, Instant.parse(filled.text("filledAt")));
        System.out.printf("order placed in %s became matchable and filled in %s %d ms after placement (RTT %d ms)%n",
                AWAY, HOME, matchable.toMillis(), brokers.stack().regions().roundTrip(HOME, AWAY).toMillis());
        assertThat(matchable).isLessThan(brokers.stack().regions().oneWayLatency(AWAY, HOME).plusSeconds(1).plusMillis(500));
        assertThat(awaitStatus(aliceAway, orderId, "FILLED").text("filledBy")).isEqualTo(HOME);
    }

    @Test
    void aRetriedPlacementReturnsTheSameOrderAndNeverASecond() {
        Map<String, Object> order = order("LIMIT", "BUY", "VZ", 3, "1.00");
        Reply first = aliceHome.place(order);
        Reply retry = aliceHome.place(order);
        Reply retryElsewhere = aliceAway.place(order);

        assertThat(first.status()).isEqualTo(201);
        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.text("orderId")).isEqualTo(first.text("orderId"));
        assertThat(retryElsewhere.text("orderId")).isEqualTo(first.text("orderId"));
        long copies = 0;
        for (var o : aliceHome.getAll("/api/orders?status=OPEN")) {
            copies += o.path("clientOrderId").asString().equals(order.get("clientOrderId")) ? 1 : 0;
        }
        assertThat(copies).isEqualTo(1);

        order.put("quantity", 4);
        assertThat(aliceHome.place(order).status()).isEqualTo(400);
    }

    @Test
    void aCancelRacingAFillEndsInExactlyOneOfTheTwo() {
        int filled = 0;
        int cancelled = 0;
        for (int i = 0; i < 8; i++) {
            Reply placed = aliceHome.place(order("LIMIT", "BUY", "PG", 1, "150.00"));
            String orderId = placed.text("orderId");
            // alternate who starts first, so both outcomes get their chance
            Reply cancel;
            if (i % 2 == 0) {
                CompletableFuture<Void> tick = CompletableFuture.runAsync(() -> homeTicks.tick("PG", "NYSE", "150.00"));
                cancel = aliceHome.delete("/api/orders/" + orderId);
                tick.join();
            } else {
                CompletableFuture<Reply> cancelling = CompletableFuture.supplyAsync(() -> aliceHome.delete("/api/orders/" + orderId));
                homeTicks.tick("PG", "NYSE", "150.00");
                cancel = cancelling.join();
            }

            Reply end = awaitClosed(aliceHome, orderId);
            boolean inTransactions = false;
            for (var t : aliceHome.getAll("/api/transactions")) {
                inTransactions |= t.path("orderId").asString().equals(orderId);
            }
            if (cancel.status() == 200) {
                assertThat(end.text("status")).isEqualTo("CANCELLED");
                assertThat(inTransactions).isFalse();
                cancelled++;
            } else {
                assertThat(cancel.status()).as(cancel.raw()).isEqualTo(409);
                assertThat(end.text("status")).isEqualTo("FILLED");
                assertThat(inTransactions).isTrue();
                filled++;
            }
        }
        System.out.printf("cancel vs fill races: %d cancelled, %d filled%n", cancelled, filled);
        assertThat(filled + cancelled).isEqualTo(8);
    }

    @Test
    void aCancelPlacedAwayFromHomeIsDecidedAtHome() {
        Reply placed = aliceAway.place(order("LIMIT", "BUY", "CVX", 2, "1.00"));
        String orderId = placed.text("orderId");
        awaitOpenAtHome(orderId);

        Reply cancel = aliceAway.delete("/api/orders/" + orderId);

        assertThat(cancel.status()).as(cancel.raw()).isEqualTo(202);
        assertThat(awaitStatus(aliceAway, orderId, "CANCELLED").text("status")).isEqualTo("CANCELLED");
    }

    @Test
    void anOrderPlacedAwayFromHomeIsFoundAndCancelledThereBeforeItsRowsReplicate() {
        assumeTrue(brokers.stack().wanEmulated(), "replication can be delayed only on an emulated WAN (not the stack in containers)");
        // the home writes the order and answers; its rows reach the away region's replicas a second later
        brokers.stack().delayReplicationInto(AWAY, Duration.ofSeconds(1));
        String orderId;
        try {
            Reply placed = aliceAway.place(order("LIMIT", "BUY", "CVX", 1, "1.00"));
            assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
            orderId = placed.text("orderId");

            Reply read = aliceAway.get("/api/orders/" + orderId);
            assertThat(read.status()).as(read.raw()).isEqualTo(200);
            assertThat(read.text("placedRegion")).isEqualTo(AWAY);
            Reply cancel = aliceAway.delete("/api/orders/" + orderId);
            assertThat(cancel.status()).as(cancel.raw()).isEqualTo(202);
        } finally {
            brokers.stack().delayReplicationInto(AWAY, Duration.ZERO);
        }
        assertThat(awaitStatus(aliceHome, orderId, "CANCELLED").text("status")).isEqualTo("CANCELLED");
        assertThat(brokers.client(AWAY, "bob", "bob-pw").get("/api/orders/" + orderId).status())
                .as("another customer does not find it through the home region either").isEqualTo(404);
    }

    @Test
    void cashAndSharesAreReservedAtPlacementAndSettledAtTheFillPrice() {
        TestSession carol = brokers.client(HOME, "carol", "carol-pw");
        Reply before = carol.get("/api/holdings");
        BigDecimal cash = new BigDecimal(before.text("cash"));
        // what carol's orders from other tests still hold (the fuzzing leaves some open): this test's reservations come on top
        BigDecimal heldBefore = new BigDecimal(before.text("reservedCash"));

        Reply buy = carol.place(order("LIMIT", "BUY", "T", 100, "26.00"));
        assertThat(buy.status()).as("the BUY is placed: " + buy.raw()).isEqualTo(201);
        assertThat(new BigDecimal(carol.get("/api/holdings").text("reservedCash"))).isEqualByComparingTo(heldBefore.add(new BigDecimal("2600.00")));
        homeTicks.tick("T", "NYSE", "25.50");
        awaitStatus(carol, buy.text("orderId"), "FILLED");
        Reply afterBuy = carol.get("/api/holdings");
        assertThat(new BigDecimal(afterBuy.text("cash"))).isEqualByComparingTo(cash.subtract(new BigDecimal("2550.00")));
        assertThat(new BigDecimal(afterBuy.text("reservedCash"))).isEqualByComparingTo(heldBefore);
        assertThat(afterBuy.body().path("positions").path("T").asLong()).isEqualTo(100);

        Reply sell = carol.place(order("LIMIT", "SELL", "T", 100, "27.00"));
        assertThat(sell.status()).as("the shares a fill just brought can be sold at once: " + sell.raw()).isEqualTo(201);
        assertThat(carol.get("/api/holdings").body().path("reservedShares").path("T").asLong()).isEqualTo(100);
        assertThat(carol.place(order("LIMIT", "SELL", "T", 1, "27.00")).status()).as("no shares left to sell").isEqualTo(422);
        homeTicks.tick("T", "NYSE", "27.10");
        awaitStatus(carol, sell.text("orderId"), "FILLED");
        Reply afterSell = carol.get("/api/holdings");
        assertThat(new BigDecimal(afterSell.text("cash"))).isEqualByComparingTo(cash.subtract(new BigDecimal("2550.00")).add(new BigDecimal("2710.00")));
        assertThat(afterSell.body().path("positions").has("T")).isFalse();
        assertThat(carol.getAll("/api/transactions").size()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void customersSeeOnlyTheirOwnOrdersAndAStrangerIsTurnedAway() {
        String orderId = aliceHome.place(order("LIMIT", "BUY", "PFE", 1, "1.00")).text("orderId");

        // bob's home is asked about an order not in bob's partition here: a 503 (retry) while an earlier test's cut still heals
        TestSession bob = brokers.client(HOME, "bob", "bob-pw");
        assertThat(Await.until("bob's look-up answered", SETTLE, () -> bob.get("/api/orders/" + orderId), r -> r.status() != 503).status())
                .isEqualTo(404);
        assertThat(brokers.client(HOME, "bob", "bob-pw").delete("/api/orders/" + orderId).status()).isEqualTo(404);
        Reply anonymous = brokers.client(HOME, null, null).get("/api/orders/" + orderId);
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.contentType()).startsWith("application/problem+json");
        assertThat(brokers.client(HOME, "alice", "wrong").get("/api/holdings").status()).isEqualTo(401);
    }

    /** Issue #12: passwords only buy tokens; metrics and health details are the operator's. */
    @Test
    void aPasswordIsCheckedOnlyForATokenAndMetricsAreTheOperators() {
        String alicePassword = "Basic " + java.util.Base64.getEncoder().encodeToString("alice:alice-pw".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        TestSession.Reply basicOnTheApi = brokers.client(HOME, null, null).send("GET", "/api/holdings", null, null, alicePassword);
        assertThat(basicOnTheApi.status()).as("a customer's password is not an API credential").isEqualTo(401);
        assertThat(basicOnTheApi.header("WWW-Authenticate")).contains("Bearer");
        assertThat(brokers.operator(HOME).get("/api/holdings").status()).as("the operator is no customer").isEqualTo(403);
        TestSession anonymous = brokers.client(HOME, null, null);
        assertThat(anonymous.get("/actuator/prometheus").status()).isEqualTo(401);
        assertThat(anonymous.get("/actuator/health").body().has("components")).as("no details for strangers").isFalse();
        assertThat(brokers.operator(HOME).get("/actuator/health").body().has("components")).isTrue();
        assertThat(aliceHome.get("/api/holdings").status()).as("alice's bearer token").isEqualTo(200);
    }

    @Test
    void aMalformedTickIsCountedAndSkippedAndTheConsumerGoesOn() {
        String orderId = aliceHome.place(order("LIMIT", "BUY", "DIS", 1, "112.00")).text("orderId");
        homeTicks.raw("DIS", "not a tick".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        homeTicks.raw("DIS", "{\"v\":99,\"symbol\":\"DIS\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        homeTicks.tick("DIS", "NYSE", "111.50");

        assertThat(new BigDecimal(awaitStatus(aliceHome, orderId, "FILLED").text("fillPrice"))).isEqualByComparingTo("111.50");
        String metrics = brokers.operator(HOME).get("/actuator/prometheus").body().path("unparsed").asString();
        assertThat(metrics).containsPattern("broker_ticks_total\\{[^}]*result=\"malformed\"[^}]*} ([2-9]|[1-9][0-9]+)\\.");
    }

    @Test
    void fillLatencyAndCountersArePublishedForPrometheus() {
        String orderId = aliceHome.place(order("LIMIT", "BUY", "NKE", 1, "65.00")).text("orderId");
        homeTicks.tick("NKE", "NYSE", "64.90");
        awaitStatus(aliceHome, orderId, "FILLED");

        String metrics = brokers.operator(HOME).get("/actuator/prometheus").body().path("unparsed").asString();
        assertThat(metrics).contains("broker_fill_tick_to_fill_seconds_bucket", "broker_fill_receipt_to_fill_seconds_count",
                "broker_ticks_total{", "broker_orders_total{", "region=\"us-east-1\"");
        // the clients' own meters beside the broker's, each naming its region: the Kafka consumers and producer, the Cassandra driver
        assertThat(metrics).containsPattern("kafka_consumer_fetch_manager_records_lag_max\\{[^}]*region=\"us-east-1\"")
                .containsPattern("kafka_producer_record_send_total\\{[^}]*region=\"us-east-1\"")
                .containsPattern("cassandra_driver_session_cql_requests_seconds_count\\{[^}]*region=\"us-east-1\"")
                .containsPattern("cassandra_driver_nodes_pool_open_connections\\{[^}]*region=\"us-east-1\"");
        assertThat(brokers.client(HOME, null, null).get("/actuator/health/readiness").text("status")).isEqualTo("UP");
    }

    private void awaitOpenAtHome(String orderId) {
        // the order placed away is at home as soon as its placement was answered: its owner wrote it there
        Await.until("order " + orderId + " visible at home", SETTLE, () -> aliceHome.get("/api/orders/" + orderId).status() == 200);
    }

    static Map<String, Object> order(String type, String side, String symbol, long quantity, String price) {
        Map<String, Object> order = new LinkedHashMap<>();
        order.put("clientOrderId", "t-" + UUID.randomUUID());
        order.put("symbol", symbol);
        order.put("side", side);
        order.put("type", type);
        order.put("quantity", quantity);
        order.put(type.equals("STOP") ? "stopPrice" : "limitPrice", new BigDecimal(price));
        return order;
    }

    private static void awaitLastPrice(TestSession client, String symbol, String price) {
        client.awaitPrice(symbol, price, SETTLE);
    }

    static Reply awaitStatus(TestSession client, String orderId, String status) {
        return client.awaitStatus(orderId, status, SETTLE);
    }

    private static Reply awaitClosed(TestSession client, String orderId) {
        return Await.until("order " + orderId + " closed", SETTLE, () -> client.get("/api/orders/" + orderId),
                r -> !r.text("status").equals("OPEN"));
    }

    static void sleep(long millis) {
        Brokers.sleep(millis);
    }
}
