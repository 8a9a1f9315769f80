package org.brokerapp.broker.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * MARKET orders on the two-region stack with WAN emulation: executed at home at once, routed
 * across the emulated 230 ms round trip from away, executed once however often they are retried,
 * refused fast while the home region is cut off, and routed again after the heal.
 */
@BrokersTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MarketOrderRoutingIT {

    private static final String HOME = "us-east-1";
    private static final String AWAY = "ap-southeast-2";
    private static final Duration SETTLE = Duration.ofSeconds(20);

    private final Brokers brokers;
    private final TestSession aliceHome;
    private final TestSession aliceAway;
    private final TickPublisher homeTicks;
    private final TickPublisher awayTicks;
    private final Duration rtt;

    MarketOrderRoutingIT(Brokers brokers) {
        this.brokers = brokers;
        this.aliceHome = brokers.client(HOME, "alice", "alice-pw");
        this.aliceAway = brokers.client(AWAY, "alice", "alice-pw");
        this.homeTicks = brokers.ticks(HOME);
        this.awayTicks = brokers.ticks(AWAY);
        this.rtt = brokers.stack().regions().roundTrip(HOME, AWAY);
    }

    @AfterAll
    void close() {
        homeTicks.close();
        awayTicks.close();
    }

    @Test
    @Order(1)
    void aMarketOrderAtHomeExecutesAtOnceAtTheLatestPrice() {
        homeTicks.tick("BXP", "NYSE", "70.25");
        awaitPrice(aliceHome, "BXP", "70.25");
        BigDecimal cashBefore = cash(aliceHome);

        Reply placed = aliceHome.place(market("BUY", "BXP", 4));

        assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
        assertThat(placed.text("status")).isEqualTo("FILLED");
        assertThat(new BigDecimal(placed.text("fillPrice"))).isEqualByComparingTo("70.25");
        assertThat(placed.text("filledBy")).isEqualTo(HOME);
        assertThat(cash(aliceHome)).isEqualByComparingTo(cashBefore.subtract(new BigDecimal("281.00")));
    }

    @Test
    @Order(2)
    void aMarketOrderPlacedAwayIsRoutedHomeAndCostsOneRoundTrip() {
        homeTicks.tick("KIM", "NYSE", "21.10");
        awaitPrice(aliceHome, "KIM", "21.10");
        aliceAway.place(market("BUY", "KIM", 1)); // the first call may open a connection: not measured

        List<Long> routed = new ArrayList<>();
        List<Long> local = new ArrayList<>();
        String lastOrderId = null;
        for (int i = 0; i < 30; i++) {
            long started = System.nanoTime();
            Reply placed = aliceAway.place(market("BUY", "KIM", 1));
            routed.add(System.nanoTime() - started);
            assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
            assertThat(placed.text("status")).isEqualTo("FILLED");
            assertThat(placed.text("filledBy")).isEqualTo(HOME);
            assertThat(placed.text("placedRegion")).isEqualTo(AWAY);
            assertThat(new BigDecimal(placed.text("fillPrice"))).isEqualByComparingTo("21.10");
            lastOrderId = placed.text("orderId");
            started = System.nanoTime();
            assertThat(aliceHome.place(market("BUY", "KIM", 1)).status()).isEqualTo(201);
            local.add(System.nanoTime() - started);
        }
        double routedP50 = percentileMillis(routed, 0.5);
        double routedP99 = percentileMillis(routed, 0.99);
        System.out.printf("market orders, %d each, sequential: placed at home p50 %.1f ms, max %.1f ms; routed %s -> %s p50 %.1f ms (%.2fx RTT),"
                        + " max %.1f ms (%.2fx RTT); RTT %d ms%n", routed.size(), percentileMillis(local, 0.5), percentileMillis(local, 0.99), AWAY, HOME,
                routedP50, routedP50 / rtt.toMillis(), routedP99, routedP99 / rtt.toMillis(), rtt.toMillis());
        assertThat(routedP50).as("at least one round trip").isGreaterThanOrEqualTo(rtt.toMillis() * 0.9);
        // one round trip, not two: the median says it (two would be 2x and more); the slowest of 30 only has to stay clear of a
        // hang (a busy machine stalls a call now and then). The latency target itself is measured by the harness, not here.
        assertThat(routedP50).as("one round trip, not two (the target is in docs/benchmarks/README.md)").isLessThan(1.75 * rtt.toMillis());
        assertThat(routedP99).as("generous bound").isLessThan(3.0 * rtt.toMillis());
        // the placing region learns of the fill through replication
        assertThat(awaitStatus(aliceAway, lastOrderId, "FILLED").text("filledBy")).isEqualTo(HOME);
    }

    @Test
    @Order(3)
    void aRoutedOrdersTimeIsRecordedStepByStepAtBothEnds() {
        homeTicks.tick("KIM", "NYSE", "21.10");
        awaitPrice(aliceHome, "KIM", "21.10");
        TestSession bobAway = brokers.client(AWAY, "bob", "bob-pw"); // homed away: his owner there sends the order to the symbol's region
        awaitPrice(bobAway, "KIM", "21.10"); // the price his owner reserves for
        TestSession operatorHome = brokers.client(HOME, "operator", "operator-pw");
        TestSession operatorAway = brokers.client(AWAY, "operator", "operator-pw");
        Map<String, Long> homeBefore = latencyCounts(operatorHome);
        Map<String, Long> awayBefore = latencyCounts(operatorAway);

        for (int i = 0; i < 3; i++) {
            Reply placed = bobAway.place(market("BUY", "KIM", 1));
            assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
            assertThat(placed.text("filledBy")).isEqualTo(HOME);
        }
        Reply refused = bobAway.place(market("BUY", "ARE", 1)); // no price at home: refused there, so not a routed order's time
        assertThat(refused.status()).as(refused.raw()).isEqualTo(422);

        Map<String, Long> home = latencyCounts(operatorHome);
        Map<String, Long> away = latencyCounts(operatorAway);
        assertThat(away.get("market-routed-request") - awayBefore.get("market-routed-request")).as("at the broker bob sent them to").isEqualTo(3);
        assertThat(away.get("market-routed-call") - awayBefore.get("market-routed-call")).as("his owner's calls, answered").isEqualTo(3);
        assertThat(home.get("market-execution-request") - homeBefore.get("market-execution-request")).as("executed at home").isEqualTo(3);
        assertThat(home.get("market-fill-row") - homeBefore.get("market-fill-row")).as("their FILLED rows, written at home").isEqualTo(3);
        assertThat(away.get("market-fill-row") - awayBefore.get("market-fill-row")).as("nothing written away").isZero();
    }

    @Test
    @Order(4)
    void theHomesRefusalIsTheAnswer() {
        Reply noPrice = aliceAway.place(market("BUY", "ARE", 1));
        assertThat(noPrice.status()).as(noPrice.raw()).isEqualTo(422);
        assertThat(noPrice.contentType()).startsWith("application/problem+json");
        assertThat(noPrice.text("detail")).contains("ARE");
        assertThat(noPrice.text("region")).isEqualTo(HOME);

        homeTicks.tick("KIM", "NYSE", "21.10");
        awaitPrice(aliceHome, "KIM", "21.10");
        Reply tooBig = brokers.client(AWAY, "carol", "carol-pw").place(market("BUY", "KIM", 1_000_000));
        assertThat(tooBig.status()).as(tooBig.raw()).isEqualTo(422);
        assertThat(tooBig.text("title")).isEqualTo("Insufficient holdings");
    }

    @Test
    @Order(5)
    void aRoutedOrderRetriedAfterATimeoutExecutesOnce() {
        homeTicks.tick("IRM", "NYSE", "95.50");
        awaitPrice(aliceHome, "IRM", "95.50");
        Map<String, Object> order = market("BUY", "IRM", 3);
        BigDecimal cashBefore = cash(aliceHome);

        // the home executes, but its answers arrive after the 1 s time limiter: the attempt and the router's retry both time out
        brokers.stack().slowDown(HOME, Duration.ofMillis(1500));
        Reply timedOut;
        try {
            timedOut = aliceAway.place(order);
        } finally {
            brokers.stack().slowDown(HOME, Duration.ZERO);
        }
        assertThat(timedOut.status()).as(timedOut.raw()).isEqualTo(504);
        assertThat(timedOut.text("detail")).contains("same clientOrderId");

        Reply retried = awaitRouted(order);
        assertThat(retried.status()).as("the home knows the key: no second execution").isEqualTo(200);
        assertThat(retried.text("status")).isEqualTo("FILLED");
        String orderId = retried.text("orderId");
        long executions = aliceHome.getAll("/api/transactions").stream().filter(t -> t.path("orderId").asString().equals(orderId)).count();
        assertThat(executions).isEqualTo(1);
        assertThat(cash(aliceHome)).isEqualByComparingTo(cashBefore.subtract(new BigDecimal("286.50")));
    }

    @Test
    @Order(6)
    void aCutHomeIsRefusedFastWhileLocalTradingGoesOnAndTheCircuitClosesAfterTheHeal() {
        homeTicks.tick("ESS", "NYSE", "260.00");
        awaitPrice(aliceHome, "ESS", "260.00");
        brokers.stack().cut(HOME);
        try {
            // failures open the circuit: until then each attempt fails on a refused connection
            Await.await("the circuit to " + HOME + " open", SETTLE).pollInterval(Duration.ZERO)
                    .until(() -> aliceAway.place(market("BUY", "ESS", 1)).text("detail").contains("circuit open"));

            TestSession operatorAway = brokers.client(AWAY, "operator", "operator-pw");
            long refusedBefore = refusedMarketRequests(operatorAway);
            List<Long> micros = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                long started = System.nanoTime();
                Reply r = aliceAway.place(market("BUY", "ESS", 1));
                micros.add((System.nanoTime() - started) / 1000);
                assertThat(r.status()).isEqualTo(503);
                assertThat(r.contentType()).startsWith("application/problem+json");
                assertThat(r.text("region")).isEqualTo(HOME);
                assertThat(r.header("Retry-After")).isPresent();
            }
            micros.sort(null);
            System.out.printf("with %s cut off and the circuit open: 503 in p50 %.1f ms, max %.1f ms%n", HOME,
                    micros.get(micros.size() / 2) / 1000.0, micros.get(micros.size() - 1) / 1000.0);
            // refused without waiting on the WAN (a timeout would take seconds); the 50 ms target is the region-cut drill's to measure
            assertThat(micros.get(micros.size() / 2)).as("p50 of the 503s, micros").isLessThan(150_000);
            // the broker times each refusal from its first filter to its answer, apart from the client's side
            assertThat(refusedMarketRequests(operatorAway) - refusedBefore).as("refusals in the broker's market-refused-request histogram").isEqualTo(20);

            // local trading in both regions goes on: a Sydney customer's limit order fills on a Sydney tick, a Virginia market order executes
            TestSession bobAway = brokers.client(AWAY, "bob", "bob-pw");
            Reply asx = bobAway.place(limit("BUY", "CIA", 10, "5.00"));
            assertThat(asx.status()).as(asx.raw()).isEqualTo(201);
            awayTicks.tick("CIA", "ASX", "4.99");
            assertThat(awaitStatus(bobAway, asx.text("orderId"), "FILLED").text("filledBy")).isEqualTo(AWAY);
            Reply local = aliceHome.place(market("SELL", "ESS", 1));
            assertThat(local.status()).as("alice has no ESS: the home's own refusal, not a 503").isEqualTo(422);
            assertThat(aliceHome.place(market("BUY", "ESS", 1)).status()).isEqualTo(201);
        } finally {
            brokers.stack().heal(HOME);
        }
        Reply routedAgain = awaitRouted(market("BUY", "ESS", 1));
        assertThat(routedAgain.status()).as(routedAgain.raw()).isEqualTo(201);
        // half-open lets two calls through, both pings (orders are refused while it probes): the circuit closes by itself
        Await.await("the circuit to " + HOME + " closed", SETTLE).pollInterval(Duration.ofMillis(200))
                .until(this::circuitState, "CLOSED"::equals);
        String metrics = brokers.operator(AWAY).get("/actuator/prometheus").raw();
        assertThat(metrics.lines().filter(l -> l.startsWith("resilience4j_circuitbreaker_state{") && l.contains("name=\"" + HOME + "\"")
                && l.contains("state=\"closed\"")).findFirst()).hasValueSatisfying(l -> assertThat(l).endsWith(" 1.0"));
    }

    /** Tomcat closes a connection after 100 requests unless told otherwise: every 100th call between regions paid a handshake across the WAN. */
    @Test
    @Order(7)
    void aConnectionIsNeverClosedForItsNumberOfRequests() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest ping = HttpRequest.newBuilder(URI.create(brokers.stack().brokerUrl(HOME)).resolve("/actuator/health/liveness")).build();
        for (int i = 1; i <= 150; i++) {
            HttpResponse<Void> answered = http.send(ping, HttpResponse.BodyHandlers.discarding());
            assertThat(answered.statusCode()).isEqualTo(200);
            assertThat(answered.headers().firstValue("Connection")).as("request %d on one kept-open connection", i).isEmpty();
        }
    }

    private Reply awaitRouted(Map<String, Object> order) {
        return Await.await("a market order routed to " + HOME + " again", SETTLE).pollInterval(Duration.ofMillis(250))
                .until(() -> aliceAway.place(order), r -> r.status() < 500);
    }

    private String circuitState() {
        return brokers.operator(AWAY).get("/actuator/health").body()
                .path("components").path("circuitBreakers").path("details").path(HOME).path("details").path("state").asString();
    }

    private static double percentileMillis(List<Long> nanos, double percentile) {
        List<Long> sorted = nanos.stream().sorted().toList();
        return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(percentile * sorted.size()) - 1)) / 1e6;
    }

    private static Map<String, Object> market(String side, String symbol, long quantity) {
        Map<String, Object> order = new LinkedHashMap<>();
        order.put("clientOrderId", "m-" + UUID.randomUUID());
        order.put("symbol", symbol);
        order.put("side", side);
        order.put("type", "MARKET");
        order.put("quantity", quantity);
        return order;
    }

    private static Map<String, Object> limit(String side, String symbol, long quantity, String price) {
        Map<String, Object> order = market(side, symbol, quantity);
        order.put("type", "LIMIT");
        order.put("limitPrice", new BigDecimal(price));
        return order;
    }

    private static BigDecimal cash(TestSession client) {
        return new BigDecimal(client.get("/api/holdings").text("cash"));
    }

    private static long refusedMarketRequests(TestSession operator) {
        return latencyCounts(operator).getOrDefault("market-refused-request", -1L);
    }

    private static Map<String, Long> latencyCounts(TestSession operator) {
        Reply latency = operator.get("/actuator/latency");
        assertThat(latency.status()).as(latency.raw()).isEqualTo(200);
        Map<String, Long> counts = new LinkedHashMap<>();
        latency.body().path("histograms").properties().forEach(e -> counts.put(e.getKey(), e.getValue().path("count").asLong(-1)));
        return counts;
    }

    private static void awaitPrice(TestSession client, String symbol, String price) {
        client.awaitPrice(symbol, price, SETTLE);
    }

    private static Reply awaitStatus(TestSession client, String orderId, String status) {
        return client.awaitStatus(orderId, status, SETTLE);
    }

    private static void sleep(long millis) {
        Brokers.sleep(millis);
    }
}
