package org.brokerapp.broker.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventCodec;
import org.brokerapp.broker.events.OrderEventPublisher;
import org.brokerapp.broker.peer.PeerLinks;
import org.brokerapp.broker.peer.PeerSigner;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.SignedCalls;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue #55's event findings on the real two-region stack: where one region's events meet another
 * region's intake and a customer's owner. A {@code FILLED} event signed with Sydney's key, for a
 * resting NYSE BUY (a symbol only us-east-1 decides), at {@code fillPrice -1000}, was answered 200 and
 * booked: the customer then sold shares she never held. And an order's PLACED event sent again after
 * the decider had forgotten its decision rested again and filled a second time.
 */
@BrokersTest
class EventSeamsIT {

    private static final String HOME = "us-east-1";
    private static final String AWAY = "ap-southeast-2";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Brokers brokers;

    EventSeamsIT(Brokers brokers) {
        this.brokers = brokers;
    }

    @Test
    void aForgedFillFromAnyRegionOrAnyPathMovesNoMoney() throws Exception {
        TestSession customer = brokers.client(HOME, "load-7", "load-7-pw");
        Reply placed = customer.place(Map.of("clientOrderId", "seam-" + UUID.randomUUID(), "symbol", "SPGI", "side", "BUY", "type", "LIMIT",
                "quantity", 100, "limitPrice", "1.00"));
        assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
        Order order = openOrder(placed, "load-7");
        Reply before = customer.awaitHoldings(h -> new BigDecimal(h.text("reservedCash")).compareTo(new BigDecimal("100.00")) >= 0,
                Duration.ofSeconds(15));
        OrderEventCodec codec = brokers.bean(HOME, OrderEventCodec.class);
        PeerSigner sydney = brokers.bean(AWAY, PeerSigner.class);
        URI events = URI.create(customer.base() + EventIntake.PATH + "?replayed=false");
        double refusedEvents = count(HOME, "broker.events.refused");
        double refusedFills = count(HOME, "broker.fills.refused");

        // the finding as filed: Sydney's key, Sydney's event, a symbol Sydney does not decide
        assertThat(post(sydney, events, codec.encodeAll(List.of(forgedFill(order, AWAY))))).as("taken, and refused inside").isEqualTo(200);
        // Sydney's key speaking for us-east-1
        assertThat(post(sydney, events, codec.encodeAll(List.of(forgedFill(order, HOME))))).isEqualTo(403);
        // passed on "within" us-east-1, signed by Sydney
        assertThat(post(sydney, URI.create(customer.base() + EventIntake.PATH + "?passedOn=true"), codec.encodeAll(List.of(forgedFill(order, AWAY)))))
                .isEqualTo(403);
        // us-east-1's own Kafka: a region that decides NYSE, a fill that cannot be this order's
        brokers.bean(HOME, OrderEventPublisher.class).publish(forgedFill(order, HOME)).get();
        Await.until("the owner refused the fill from Kafka", Duration.ofSeconds(30), () -> count(HOME, "broker.fills.refused") > refusedFills);

        assertThat(count(HOME, "broker.events.refused")).isGreaterThan(refusedEvents);
        Reply after = customer.get("/api/holdings");
        assertThat(after.body()).as(after.raw()).isEqualTo(before.body());
        assertThat(customer.get("/api/orders/" + order.orderId()).text("status")).isEqualTo("OPEN");
        Reply sell = customer.place(Map.of("clientOrderId", "seam-sell-" + UUID.randomUUID(), "symbol", "SPGI", "side", "SELL", "type", "LIMIT",
                "quantity", 100, "limitPrice", "500.00"));
        assertThat(sell.status()).as("shares she never held: " + sell.raw()).isEqualTo(422);
    }

    /**
     * The publisher sends an event again after a Kafka outage, as a new record: the relay takes it as
     * new. Once the decider has forgotten its decision (the test brokers remember for 10 s), the order
     * must not rest and fill again: the ledger, not the memory, is the guard.
     */
    @Test
    void aPlacementSentAgainAfterTheDeciderForgotItsDecisionNeverFillsTwice() throws Exception {
        sentAgainAfter(HOME, "load-9", "NEE", () -> Brokers.sleep(Duration.ofSeconds(22).toMillis())); // past the memory and its clean-up
    }

    /**
     * The same across the WAN after the deciding broker restarted: a Sydney customer's NYSE order,
     * relayed from Sydney's Kafka to us-east-1, whose broker then remembers nothing.
     */
    @Test
    void aPlacementRelayedAgainAfterTheDeciderRestartedNeverFillsTwice() throws Exception {
        sentAgainAfter(AWAY, "load-20", "UBER", () -> {
            brokers.stop(HOME);
            brokers.restart(HOME);
        });
    }

    private void sentAgainAfter(String home, String customerId, String symbol, Runnable forget) throws Exception {
        TestSession customer = brokers.client(home, customerId, customerId + "-pw");
        Reply placed = customer.place(Map.of("clientOrderId", "resent-" + UUID.randomUUID(), "symbol", symbol, "side", "BUY", "type", "LIMIT",
                "quantity", 10, "limitPrice", "50.00"));
        assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
        Order order = openOrder(placed, customerId);
        try (TickPublisher ticks = brokers.ticks(HOME)) {
            customer.awaitFilledTicking(order.orderId().toString(), () -> ticks.tick(symbol, "NYSE", "49.00"), Duration.ofSeconds(30));
            Reply filled = customer.awaitHoldings(h -> h.body().path("positions").path(symbol).asLong() == 10, Duration.ofSeconds(30));

            forget.run();
            brokers.bean(home, OrderEventPublisher.class).publish(OrderEvent.placed(order, Instant.now(), home)).get();
            Brokers.sleep(3_000);
            ticks.tick(symbol, "NYSE", "48.00");
            customer.awaitPrice(symbol, "48.00", Duration.ofSeconds(30));
            Brokers.sleep(3_000);

            Reply now = customer.get("/api/orders/" + order.orderId());
            assertThat(new BigDecimal(now.text("fillPrice"))).as(now.raw()).isEqualByComparingTo("49.00");
            assertThat(customer.awaitHoldings(h -> true, Duration.ofSeconds(15)).body()).isEqualTo(filled.body());
        }
    }

    /** The order as its placement answered it (OPEN), as its owner published it (the answer leaves out whose it is). */
    private static Order openOrder(Reply placed, String customer) {
        tools.jackson.databind.node.ObjectNode order = (tools.jackson.databind.node.ObjectNode) JSON.readTree(placed.raw());
        order.put("customerId", customer);
        return JSON.treeToValue(order, Order.class);
    }

    /** carol's finding: the order FILLED at -1000 a share, published as {@code region}. */
    private static OrderEvent forgedFill(Order open, String region) {
        Order filled = new Order(open.orderId(), open.customerId(), open.clientOrderId(), open.symbol(), open.exchange(), open.side(), open.type(),
                open.quantity(), open.limitPrice(), null, open.reservedCash(), OrderStatus.FILLED, open.placedRegion(), open.placedAt(),
                new BigDecimal("-1000"), Instant.now(), region, null);
        return OrderEvent.filled(filled, Instant.now(), Instant.now(), Instant.now(), region);
    }

    private static int post(PeerSigner signer, URI uri, byte[] body) throws Exception {
        return HTTP.send(SignedCalls.post(signer, uri, HOME, body, PeerLinks.MANY_CUSTOMERS), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private double count(String region, String name) {
        return brokers.bean(region, MeterRegistry.class).find(name).counters().stream().mapToDouble(Counter::count).sum();
    }
}
