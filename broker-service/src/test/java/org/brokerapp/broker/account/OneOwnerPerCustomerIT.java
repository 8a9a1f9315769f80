package org.brokerapp.broker.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.client.BrokerSession.Reply;
import org.junit.jupiter.api.Test;

/**
 * One customer, two regions, the same instant: each customer's balances are decided by one owner
 * in their home region, so two BUY orders that each fit the cash but not together are never both
 * accepted, whichever region each was placed in, with the WAN between the regions emulated.
 */
@BrokersTest
class OneOwnerPerCustomerIT {

    private static final List<String> REGIONS = List.of("us-east-1", "ap-southeast-2");
    /** load-n starts with 10,000,000 cash: two orders of 6,000,000 each fit alone, not together. */
    private static final long QUANTITY = 6_000_000;

    @Test
    void concurrentPlacementsInBothRegionsNeverReserveMoreThanTheCustomerHas(Brokers brokers) throws Exception {
        for (int n = 11; n <= 16; n++) {
            String customer = "load-" + n;
            Map<String, TestSession> clients = new LinkedHashMap<>();
            for (String region : REGIONS) {
                clients.put(region, brokers.client(region, customer, customer + "-pw"));
            }
            CountDownLatch start = new CountDownLatch(1);
            List<CompletableFuture<Reply>> replies = new ArrayList<>();
            for (String region : REGIONS) {
                TestSession client = clients.get(region);
                replies.add(CompletableFuture.supplyAsync(() -> {
                    awaitQuietly(start);
                    // a limit far below the market: the order rests, holding its cash
                    return client.place(Map.of("clientOrderId", "both-" + region, "symbol", "IBM", "side", "BUY", "type", "LIMIT",
                            "quantity", QUANTITY, "limitPrice", "1.00"));
                }));
            }
            start.countDown();
            List<Integer> statuses = replies.stream().map(CompletableFuture::join).map(Reply::status).sorted().toList();

            assertThat(statuses).as(customer + ": one accepted, one refused for want of cash; " + replies.stream().map(CompletableFuture::join)
                    .map(Reply::raw).toList()).containsExactly(201, 422);
            for (String region : REGIONS) {
                Reply holdings = clients.get(region).awaitHoldings(h -> new BigDecimal(h.text("reservedCash")).compareTo(new BigDecimal("6000000")) == 0,
                        Duration.ofSeconds(15));
                assertThat(new BigDecimal(holdings.text("availableCash"))).as(customer + " in " + region + ": " + holdings.raw())
                        .isEqualByComparingTo("4000000.00");
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
