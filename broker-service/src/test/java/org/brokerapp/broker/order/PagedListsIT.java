package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.client.BrokerClient;
import org.brokerapp.client.BrokerSession.Reply;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Order and transaction lists come a page at a time, customer to API to ledger on the real stack:
 * each page one bounded read of the customer's partition, the pages together every order once, a
 * token good only for the list that gave it, every bad parameter a 400 that quotes nothing.
 */
@BrokersTest
class PagedListsIT {

    private static final String HOME = "us-east-1";
    /** Homed in us-east-1, used by no other test. */
    private static final String CUSTOMER = "load-11";

    @Test
    void thePagesOfAListHoldEveryOrderOnceAndATokenServesOnlyItsOwnList(Brokers brokers) {
        TestSession customer = brokers.client(HOME, CUSTOMER, CUSTOMER + "-pw");
        Set<String> placed = new HashSet<>();
        for (int i = 0; i < 7; i++) {
            Reply r = customer.place(Map.of("clientOrderId", "paged-" + i, "symbol", "KO", "side", "BUY", "type", "LIMIT", "quantity", 1,
                    "limitPrice", "1.00"));
            assertThat(r.status()).as(r.raw()).isIn(200, 201);
            placed.add(r.text("orderId"));
        }

        Reply first = customer.get("/api/orders?size=3");
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.body().size()).isLessThanOrEqualTo(3);
        String next = first.header("Link").map(BrokerClient::nextOf).orElseThrow();
        assertThat(next).startsWith("/api/orders?size=3&after=");

        List<JsonNode> all = customer.getAll("/api/orders?size=3");
        List<String> ids = all.stream().map(o -> o.path("orderId").asString()).toList();
        assertThat(ids).doesNotHaveDuplicates().containsAll(placed);
        assertThat(customer.getAll("/api/orders?status=OPEN&size=2")).extracting(o -> o.path("orderId").asString()).containsAll(placed);

        // another customer's list does not continue from this one's token, and a made-up token is refused alike
        String token = next.substring(next.indexOf("after=") + "after=".length());
        TestSession other = brokers.client(HOME, "load-9", "load-9-pw");
        for (Reply refused : List.of(other.get("/api/orders?size=3&after=" + token), customer.get("/api/orders?after=00ff"),
                customer.get("/api/orders?after=" + "z".repeat(3000)), customer.get("/api/orders?size=0"),
                customer.get("/api/orders?size=501"), customer.get("/api/transactions?size=-1"))) {
            assertThat(refused.status()).as(refused.raw()).isEqualTo(400);
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(refused.raw()).doesNotContain(token).doesNotContain("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz");
        }

        for (String id : placed) {
            customer.delete("/api/orders/" + id);
        }
    }
}
