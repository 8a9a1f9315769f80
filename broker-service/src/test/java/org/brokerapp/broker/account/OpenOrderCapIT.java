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
 * Issue #55's bounded state on the real stack: a customer could hold any number of open orders,
 * each resting in a matcher's memory. Past {@code broker.matching.max-open-orders-per-customer}
 * (test brokers: 300) a placement is refused, and a cancel makes room again.
 */
@BrokersTest
class OpenOrderCapIT {

    private static final String HOME = "ap-southeast-2";
    /** Homed in ap-southeast-2, used by no other test. */
    private static final String CUSTOMER = "load-2";

    @Test
    void pastTheCapAPlacementIsRefusedAndACancelMakesRoom(Brokers brokers) throws Exception {
        TestSession customer = brokers.client(HOME, CUSTOMER, CUSTOMER + "-pw");
        int cap = Integer.parseInt(String.valueOf(Brokers.properties(brokers.stack(), HOME).get("broker.matching.max-open-orders-per-customer")));
        List<String> resting = new ArrayList<>();
        ExecutorService placing = Executors.newFixedThreadPool(8);
        try {
            List<Future<Reply>> sent = new ArrayList<>();
            for (int i = 0; i < cap; i++) {
                sent.add(placing.submit(() -> place(customer, resting())));
            }
            for (Future<Reply> each : sent) {
                Reply placed = each.get();
                assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
                resting.add(placed.text("orderId"));
            }
        } finally {
            placing.shutdownNow();
        }

        Reply over = place(customer, resting());
        assertThat(over.status()).as(over.raw()).isEqualTo(422);
        assertThat(over.contentType()).startsWith("application/problem+json");
        assertThat(over.text("detail")).contains(String.valueOf(cap));

        assertThat(customer.delete("/api/orders/" + resting.get(0)).status()).isIn(200, 202);
        customer.awaitStatus(resting.get(0), "CANCELLED", Duration.ofSeconds(15));
        Reply room = place(customer, resting());
        assertThat(room.status()).as(room.raw()).isEqualTo(201);
    }

    /** As a client would: a 503 (the account being taken by its owner, as the brokers start) is asked again with the same clientOrderId. */
    private static Reply place(TestSession customer, Map<String, Object> order) {
        return Await.until("an answer other than 503", Duration.ofSeconds(30), () -> customer.place(order), r -> r.status() != 503);
    }

    private static Map<String, Object> resting() {
        return Map.of("clientOrderId", "cap-" + UUID.randomUUID(), "symbol", "BHP", "side", "BUY", "type", "LIMIT", "quantity", 1,
                "limitPrice", "1.00");
    }
}
