package org.brokerapp.broker.deciding;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.Test;

/**
 * Regional failover and failback under a steady tick stream: us-east-1's broker goes away, Sydney
 * adopts NYSE and fills its orders from its own replica and its own Kafka; us-east-1 comes back and
 * does not touch NYSE until Sydney hands it back. No accepted order is lost, none is filled twice,
 * and the region that does not hold the exchange never even tries to fill.
 */
@BrokersTest
class FailoverIT {

    private static final String HOME = "us-east-1";
    private static final String ADOPTER = "ap-southeast-2";
    private static final List<String> SYMBOLS = List.of("EQR", "AVB", "VTR", "WELL", "PSA", "EXR");
    private static final String LATE = "SPG";
    private static final Duration SETTLE = Duration.ofSeconds(60);

    @Test
    void sydneyAdoptsNyseWhileVirginiasBrokerIsGoneAndHandsItBack(Brokers brokers) throws Exception {
        TestSession bobHome = brokers.client(HOME, "bob", "bob-pw");
        TestSession bobAway = brokers.client(ADOPTER, "bob", "bob-pw");
        TestSession operatorAway = brokers.client(ADOPTER, "operator", "operator-pw");
        TestSession operatorHome = brokers.client(HOME, "operator", "operator-pw");

        Reply refused = operatorAway.send("POST", "/admin/exchanges/NYSE/adopt", null, null);
        assertThat(refused.status()).as("the owner is alive: " + refused.raw()).isEqualTo(409);

        List<String> orders = new ArrayList<>();
        // resting before the outage: two placed in Virginia (forwarded to Sydney, bob's home), two in Sydney; all relayed to Virginia
        orders.add(place(bobHome, SYMBOLS.get(0)));
        orders.add(place(bobHome, SYMBOLS.get(1)));
        orders.add(place(bobAway, SYMBOLS.get(2)));
        orders.add(place(bobAway, SYMBOLS.get(3)));
        for (String id : orders) {
            awaitStatus(bobHome, id, "OPEN");
        }
        long adopterFillsBefore = fills(brokers, ADOPTER);

        AtomicBoolean ticking = new AtomicBoolean(true);
        Thread ticks = new Thread(() -> tickSteadily(brokers, ticking), "steady-nyse-ticks");
        brokers.stop(HOME);
        String late;
        try {
            // placed while nobody matches NYSE: the adopter finds them in open_orders when it takes NYSE over
            orders.add(place(bobAway, SYMBOLS.get(4)));
            orders.add(place(bobAway, SYMBOLS.get(5)));
            ticks.start();

            Reply adopted = awaitAdopted(operatorAway);
            assertThat(adopted.text("owner")).isEqualTo(ADOPTER);
            for (String id : orders) {
                assertThat(awaitStatus(bobAway, id, "FILLED").text("filledBy")).isEqualTo(ADOPTER);
            }
            // rests in Sydney: the steady ticks never reach its limit
            late = place(bobAway, LATE);
            awaitStatus(bobAway, late, "OPEN");

            brokers.restart(HOME);
            // back, but NYSE is not its to match: for 3 s it fills and attempts nothing
            Await.await(HOME + " deciding nothing on NYSE", Duration.ofSeconds(10)).during(Duration.ofSeconds(3))
                    .until(() -> fills(brokers, HOME) + attempts(brokers, HOME) == 0);

            Reply released = operatorAway.send("POST", "/admin/exchanges/NYSE/release", null, null);
            assertThat(released.status()).as(released.raw()).isEqualTo(200);
            assertThat(released.text("owner")).isEqualTo(HOME);
            awaitMatchedAtHome(operatorHome);
            try (TickPublisher toHome = brokers.ticks(HOME)) {
                toHome.tick(LATE, "NYSE", "4.99");
            }
            assertThat(awaitStatus(bobHome, late, "FILLED").text("filledBy")).as("filled after the failback, at home").isEqualTo(HOME);
        } finally {
            ticking.set(false);
            ticks.join(5_000);
            brokers.restart(HOME);
            operatorAway.send("POST", "/admin/exchanges/NYSE/release", null, null);
            awaitMatchedAtHome(operatorHome);
        }
        orders.add(late);
        for (String id : orders) {
            Reply order = bobHome.get("/api/orders/" + id);
            assertThat(order.text("status")).as(order.raw()).isEqualTo("FILLED");
        }
        assertThat(fills(brokers, ADOPTER) - adopterFillsBefore).as("Sydney filled the six, once each").isEqualTo(6);
        assertThat(fills(brokers, HOME)).as("home filled only the late one").isEqualTo(1);
        assertThat(attempts(brokers, HOME)).as("home never found an order Sydney had filled").isZero();
    }

    private static void tickSteadily(Brokers brokers, AtomicBoolean ticking) {
        // the feed publishes NYSE to both Kafkas: only the region holding NYSE may act on it
        try (TickPublisher toHome = brokers.ticks(HOME); TickPublisher toAdopter = brokers.ticks(ADOPTER)) {
            int i = 0;
            while (ticking.get()) {
                String symbol = SYMBOLS.get(i++ % SYMBOLS.size());
                toHome.tick(symbol, "NYSE", "9.99");
                toAdopter.tick(symbol, "NYSE", "9.99");
                toAdopter.tick(LATE, "NYSE", "5.01");
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String place(TestSession client, String symbol) {
        Map<String, Object> order = new LinkedHashMap<>();
        order.put("clientOrderId", "f-" + UUID.randomUUID());
        order.put("symbol", symbol);
        order.put("side", "BUY");
        order.put("type", "LIMIT");
        order.put("quantity", 10);
        order.put("limitPrice", new BigDecimal(symbol.equals(LATE) ? "5.00" : "10.00"));
        Reply placed = client.place(order);
        assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
        return placed.text("orderId");
    }

    private static Reply awaitAdopted(TestSession operator) {
        return Await.await("NYSE adopted", SETTLE).pollInterval(Duration.ofMillis(500))
                .until(() -> operator.send("POST", "/admin/exchanges/NYSE/adopt", null, null), r -> r.status() == 200);
    }

    private static void awaitMatchedAtHome(TestSession operatorHome) {
        Await.await("NYSE matched at home again", SETTLE).pollInterval(Duration.ofMillis(500)).until(() -> {
            Reply exchanges = operatorHome.get("/admin/exchanges");
            return exchanges.status() == 200 && exchanges.body().valueStream()
                    .anyMatch(e -> e.path("exchange").asString().equals("NYSE") && e.path("matchedHere").asBoolean());
        });
    }

    private static long fills(Brokers brokers, String region) {
        return counter(brokers, region, "filled");
    }

    /** Fills tried on orders something else had closed first. */
    private static long attempts(Brokers brokers, String region) {
        return counter(brokers, region, "already.closed");
    }

    private static long counter(Brokers brokers, String region, String outcome) {
        String metrics = brokers.operator(region).get("/actuator/prometheus").raw();
        return metrics.lines().filter(l -> l.startsWith("broker_fills_total") && l.contains("outcome=\"" + outcome + "\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    private static Reply awaitStatus(TestSession client, String orderId, String status) {
        return client.awaitStatus(orderId, status, SETTLE);
    }

    private static void sleep(long millis) {
        Brokers.sleep(millis);
    }
}
