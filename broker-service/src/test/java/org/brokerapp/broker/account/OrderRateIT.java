package org.brokerapp.broker.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.Test;

/**
 * The per-customer order rate is one limit across regions (issue #57, part 6): the customer's owner
 * counts every new order, whichever region received it. Before, each broker instance counted its
 * own, so a customer placing in two regions had twice the limit.
 */
@BrokersTest
class OrderRateIT {

    private static final String US = "us-east-1";
    private static final String SYDNEY = "ap-southeast-2";
    /** Homed in Sydney, used by no other test. */
    private static final String CUSTOMER = "load-24";
    private static final int PER_SECOND = 3;

    @Test
    void ordersPlacedInTwoRegionsShareTheOwnersOneLimit(Brokers brokers) throws Exception {
        brokers.restartWith(SYDNEY, Map.of("broker.security.orders-per-second", String.valueOf(PER_SECOND)));
        try {
            TestSession sydney = brokers.client(SYDNEY, CUSTOMER, CUSTOMER + "-pw");
            TestSession us = brokers.client(US, CUSTOMER, CUSTOMER + "-pw");
            // the owner takes the account over after the restart, and us-east-1's circuit to Sydney (open while it was down) closes
            // again: wait until both places, then for a full second's permits
            // (asked again on a 503 or a 429: this customer's rate is 3 a second at Sydney's edge too)
            Reply first = Await.until("the owner places again", Duration.ofSeconds(60), () -> sydney.place(order()),
                    r -> r.status() != 503 && r.status() != 429);
            assertThat(first.status()).as(first.raw()).isEqualTo(201);
            Reply reached = Await.until("us-east-1 reaches the owner again", Duration.ofSeconds(60), () -> us.place(order()),
                    r -> r.status() != 503 && r.status() != 429);
            assertThat(reached.status()).as(reached.raw()).isEqualTo(201);
            Brokers.sleep(1_500);

            // all at once, half in each region: the owner counts us-east-1's as they arrive, one one-way WAN delay later
            ExecutorService senders = Executors.newFixedThreadPool(2 * PER_SECOND);
            List<Future<Reply>> sent = new ArrayList<>();
            List<Future<Reply>> sentFromUs = new ArrayList<>();
            try {
                for (int i = 0; i < PER_SECOND; i++) {
                    sent.add(senders.submit(() -> sydney.place(order())));
                    Future<Reply> fromUs = senders.submit(() -> us.place(order()));
                    sent.add(fromUs);
                    sentFromUs.add(fromUs);
                }
                List<Reply> answers = new ArrayList<>();
                for (Future<Reply> each : sent) {
                    answers.add(each.get());
                }
                assertThat(answers).allSatisfy(r -> assertThat(r.status()).as(r.raw()).isIn(201, 429));
                long placed = answers.stream().filter(r -> r.status() == 201).count();
                // a permit comes back every 1/3 s, and the burst lasts about one WAN round trip: one more at most
                assertThat(placed).as("placed at once in both regions together").isBetween(1L, PER_SECOND + 1L);
                List<Reply> refusedInUs = new ArrayList<>();
                for (Future<Reply> each : sentFromUs) {
                    if (each.get().status() == 429) {
                        refusedInUs.add(each.get());
                    }
                }
                // us-east-1's own edge allows 1,000 a second: what it refused, the owner in Sydney refused
                assertThat(refusedInUs).as("placements in us-east-1 refused by the owner in Sydney").isNotEmpty().allSatisfy(r -> {
                    assertThat(r.contentType()).startsWith("application/problem+json");
                    assertThat(r.header("Retry-After")).isPresent();
                    assertThat(r.text("detail")).contains("across every region");
                });
            } finally {
                senders.shutdownNow();
            }
        } finally {
            brokers.restartWith(SYDNEY, Map.of());
        }
    }

    /** A BUY LIMIT of 1 at 1.00: far below the market, it rests. */
    private static Map<String, Object> order() {
        return Map.of("clientOrderId", "rate-" + UUID.randomUUID(), "symbol", "BHP", "side", "BUY", "type", "LIMIT", "quantity", 1, "limitPrice", "1.00");
    }
}
