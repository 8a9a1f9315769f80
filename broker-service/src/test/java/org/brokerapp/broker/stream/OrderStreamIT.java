package org.brokerapp.broker.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.client.OrderStream;
import org.brokerapp.client.OrderStream.Event;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pushed order updates on the real two-region stack (issue #57, part 5). The customer is homed in
 * Sydney and trades a NYSE symbol, so every fill and cancel is decided in us-east-1 and crosses
 * the WAN to reach the stream in Sydney.
 */
@BrokersTest
class OrderStreamIT {

    private static final String US = "us-east-1";
    private static final String SYDNEY = "ap-southeast-2";
    /** Homed in Sydney, used by no other test. */
    private static final String CUSTOMER = "load-8";
    /** A NYSE symbol no other test ticks. */
    private static final String SYMBOL = "XOM";
    private static final Duration SETTLE = Duration.ofSeconds(20);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * The client hangs up after the first update; meanwhile its order fills in us-east-1 and a second
     * order is placed and cancelled. Resumed with the last id it saw, the stream brings exactly what
     * it missed, in the order it happened, and then goes on live.
     */
    @Test
    void aStreamResumedAfterADisconnectMissesNothingDecidedAcrossTheWan(Brokers brokers) {
        TestSession home = brokers.client(SYDNEY, CUSTOMER, CUSTOMER + "-pw");
        TestSession away = brokers.client(US, CUSTOMER, CUSTOMER + "-pw");
        try (TickPublisher ticks = brokers.ticks(US); OrderStream awayStream = away.stream(Optional.empty())) {
            Event placed;
            String first;
            try (OrderStream stream = home.stream(Optional.empty())) {
                assertThat(stream.status()).as(stream.refusal()).isEqualTo(200);
                assertThat(awayStream.status()).as(awayStream.refusal()).isEqualTo(200);
                first = created(home.place(buy("50.00", 10)));
                placed = awaitUpdate(stream, "PLACED", first).get(0);
            }

            // ticked until it fills: the order crosses the WAN to its decider first
            home.awaitFilledTicking(first, () -> ticks.tick(SYMBOL, "NYSE", "49.00"), SETTLE);
            String second = created(home.place(buy("1.00", 1)));
            home.awaitStatus(second, "OPEN", SETTLE);
            assertThat(home.delete("/api/orders/" + second).status()).isIn(200, 202);
            home.awaitStatus(second, "CANCELLED", SETTLE);

            try (OrderStream resumed = home.stream(Optional.of(placed.id()))) {
                List<Event> missed = awaitUpdate(resumed, "CANCELLED", second);
                assertThat(missed).extracting(e -> e.name() + " " + field(e, "orderId"))
                        .containsExactly("FILLED " + first, "PLACED " + second, "CANCELLED " + second);
                JsonNode fill = JSON.readTree(missed.get(0).data());
                assertThat(fill.path("decidedIn").asString()).isEqualTo(US);
                assertThat(new BigDecimal(fill.path("fillPrice").asString())).isEqualByComparingTo("49.00");
                assertThat(missed).extracting(Event::id).doesNotHaveDuplicates().doesNotContain(placed.id());

                String third = created(home.place(buy("1.00", 2)));
                assertThat(awaitUpdate(resumed, "PLACED", third)).as("live again after the replay").hasSize(1);
            }

            // in us-east-1, the region that decided: the fill, pushed there too
            List<Event> inUs = awaitUpdate(awayStream, "FILLED", first);
            assertThat(inUs.get(inUs.size() - 1).data()).contains("\"decidedIn\":\"" + US + "\"");
        }
    }

    @Test
    void aStreamIsRefusedWithoutATokenAndForABadLastEventIdAndItsFifthEndsItsOldest(Brokers brokers) {
        TestSession customer = brokers.client(SYDNEY, CUSTOMER, CUSTOMER + "-pw");
        TestSession nobody = brokers.client(SYDNEY, null, null);

        try (OrderStream anonymous = nobody.stream(Optional.empty()); OrderStream bad = customer.stream(Optional.of("not-an-id"))) {
            assertThat(anonymous.status()).isEqualTo(401);
            assertThat(bad.status()).as(bad.refusal()).isEqualTo(400);
            assertThat(bad.contentType()).startsWith("application/problem+json");
            assertThat(bad.refusal()).contains("Last-Event-ID").doesNotContain("Exception");
        }

        List<OrderStream> open = new ArrayList<>();
        try {
            for (int n = 0; n < 4; n++) {
                open.add(customer.stream(Optional.empty()));
            }
            assertThat(open).allSatisfy(s -> assertThat(s.status()).isEqualTo(200));
            try (OrderStream fifth = customer.stream(Optional.empty())) {
                assertThat(fifth.status()).as(fifth.refusal()).isEqualTo(200);
                Await.until("the customer's oldest stream ended by the fifth", SETTLE, () -> open.get(0).ended());
                assertThat(open.subList(1, 4)).noneMatch(OrderStream::ended);
            }
        } finally {
            open.forEach(OrderStream::close);
        }
    }

    /** The stream's events up to the one named {@code name} of {@code orderId}, which must come within {@link #SETTLE}. */
    private static List<Event> awaitUpdate(OrderStream stream, String name, String orderId) {
        List<Event> seen = new ArrayList<>();
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Event> next = stream.next(Duration.ofMillis(200));
            if (next.isPresent()) {
                seen.add(next.get());
                if (next.get().name().equals(name) && field(next.get(), "orderId").equals(orderId)) {
                    return seen;
                }
            }
        }
        throw new AssertionError(name + " of " + orderId + " not pushed within " + SETTLE + "; pushed: " + seen);
    }

    private static String field(Event event, String name) {
        return JSON.readTree(event.data()).path(name).asString();
    }

    private static String created(Reply placed) {
        assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
        return placed.text("orderId");
    }

    private static Map<String, Object> buy(String limit, int quantity) {
        return Map.of("clientOrderId", "stream-" + UUID.randomUUID(), "symbol", SYMBOL, "side", "BUY", "type", "LIMIT", "quantity", quantity,
                "limitPrice", limit);
    }
}
