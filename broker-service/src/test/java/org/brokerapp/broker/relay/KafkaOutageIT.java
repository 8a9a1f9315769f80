package org.brokerapp.broker.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.brokerapp.broker.support.BrokerClient;
import org.brokerapp.broker.support.BrokerClient.Reply;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.infra.Await;
import org.junit.jupiter.api.Test;

/**
 * The region's only Kafka killed: LIMIT orders placed there are still accepted, because an event
 * Kafka does not acknowledge in time is carried straight to the region acting on it, and that
 * region's matcher has the order: a tick there fills it. Once Kafka is back, ticks flow again and
 * the order matched at home fills too. Before the fallback, each such placement waited 6 s for its
 * event and was answered 503.
 */
@BrokersTest
class KafkaOutageIT {

    private static final String HOME = "us-east-1";
    private static final String AWAY = "ap-southeast-2";
    /** Homed in us-east-1 (load customers take the regions in turn), used by no other test. */
    private static final String CUSTOMER = "load-17";
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final Pattern DIRECT = Pattern.compile("(?m)^broker_events_delivered_directly_total\\{[^}]*} ([0-9.E]+)");

    @Test
    void withItsKafkaDownARegionStillAcceptsLimitOrdersAndTheirMatchersGetThem(Brokers brokers) {
        BrokerClient customer = brokers.client(HOME, CUSTOMER, CUSTOMER + "-pw");
        BrokerClient customerAway = brokers.client(AWAY, CUSTOMER, CUSTOMER + "-pw");
        double directBefore = directlyDelivered(brokers);
        String matchedAway;
        String matchedHome;

        brokers.stack().killKafka(HOME);
        try {
            Reply away = customer.place(Map.of("clientOrderId", "outage-away", "symbol", "WES", "side", "BUY", "type", "LIMIT", "quantity", 10,
                    "limitPrice", "85.00"));
            Reply home = customer.place(Map.of("clientOrderId", "outage-home", "symbol", "DIS", "side", "BUY", "type", "LIMIT", "quantity", 10,
                    "limitPrice", "112.00"));

            assertThat(away.status()).as(away.raw()).isEqualTo(201);
            assertThat(home.status()).as(home.raw()).isEqualTo(201);
            assertThat(directlyDelivered(brokers) - directBefore).as("events carried around the dead Kafka").isGreaterThanOrEqualTo(2);
            matchedAway = away.text("orderId");
            matchedHome = home.text("orderId");

            // Sydney's Kafka is up: its matcher got the order directly, and a tick there fills it
            try (TickPublisher awayTicks = brokers.ticks(AWAY)) {
                Reply filled = untilStatus(customerAway, matchedAway, () -> awayTicks.tick("WES", "ASX", "85.00"));
                assertThat(filled.text("filledBy")).isEqualTo(AWAY);
            }
        } finally {
            brokers.stack().restartKafka(HOME);
        }

        try (TickPublisher homeTicks = brokers.ticks(HOME)) {
            Reply filled = untilStatus(customer, matchedHome, () -> homeTicks.tick("DIS", "NYSE", "112.00"));
            assertThat(filled.text("filledBy")).isEqualTo(HOME);
        }
    }

    /** Ticks every 200 ms until the order reads FILLED (the tick consumer may still be reconnecting). */
    private static Reply untilStatus(BrokerClient client, String orderId, Runnable tick) {
        Supplier<Reply> read = () -> {
            tick.run();
            Brokers.sleep(200);
            return client.get("/api/orders/" + orderId);
        };
        return Await.until("order " + orderId + " filled", SETTLE, read::get, r -> r.status() == 200 && "FILLED".equals(r.text("status")));
    }

    private static double directlyDelivered(Brokers brokers) {
        Matcher m = DIRECT.matcher(brokers.operator(HOME).get("/actuator/prometheus").raw());
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
