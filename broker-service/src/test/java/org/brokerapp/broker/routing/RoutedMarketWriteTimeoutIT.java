package org.brokerapp.broker.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.brokerapp.broker.account.AccountView;
import org.brokerapp.broker.account.Accounts;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.Test;

/**
 * A routed MARKET order whose fill cannot be written: one of the executing region's two Cassandra
 * replicas is held still (SIGSTOP) while the order is placed, so every {@code LOCAL_QUORUM} write
 * there times out. The executing region has decided the fill but cannot say whether its row
 * landed: the customer is answered 504 (retry with the same clientOrderId), the owner in the
 * customer's home region keeps the cash held, and once the replica goes on a retry is answered with
 * the fill decided the first time, written once: one transaction, the cash taken once.
 */
@BrokersTest
class RoutedMarketWriteTimeoutIT {

    /** NYSE is decided here. */
    private static final String EXECUTING = "us-east-1";
    /** Where the customer is homed, owned and places the order. */
    private static final String OWNING = "ap-southeast-2";
    /** Homed in ap-southeast-2 (even load customers are), 10,000,000 cash, used by no other test. */
    private static final String CUSTOMER = "load-18";
    private static final String SYMBOL = "DHR";
    private static final Duration SETTLE = Duration.ofSeconds(30);

    private final Brokers brokers;

    RoutedMarketWriteTimeoutIT(Brokers brokers) {
        this.brokers = brokers;
    }

    @Test
    void aFillWhoseWriteTimesOutIsA504ThatKeepsTheCashHeldAndIsWrittenOnceOnTheRetry() {
        TestSession customer = brokers.client(OWNING, CUSTOMER, CUSTOMER + "-pw");
        try (TickPublisher ticks = brokers.ticks(EXECUTING)) {
            ticks.tick(SYMBOL, "NYSE", "220.00");
            // the owner reserves for the latest price its own region knows
            customer.awaitPrice(SYMBOL, "220.00", SETTLE);
        }
        BigDecimal before = availableCash();
        BigDecimal cost = new BigDecimal("440.00");
        Map<String, Object> order = market(SYMBOL, 2);

        String replica = brokers.stack().drillableCassandraNode(EXECUTING);
        Reply unknown;
        BigDecimal whileUnknown;
        brokers.stack().pauseCassandra(replica);
        try {
            long started = System.nanoTime();
            unknown = customer.place(order);
            System.out.printf("with %s held still: %d after %d ms: %s%n", replica, unknown.status(), (System.nanoTime() - started) / 1_000_000,
                    unknown.text("detail"));
            // asked before the replica goes on: no write of the fill can have landed yet
            whileUnknown = availableCash();
        } finally {
            brokers.stack().resumeCassandra(replica);
        }

        assertThat(unknown.status()).as(unknown.raw()).isEqualTo(504);
        assertThat(unknown.text("detail")).contains("same clientOrderId");
        assertThat(whileUnknown).as("the owner's available cash while the fill's outcome is unknown: held").isLessThanOrEqualTo(before.subtract(cost));

        Reply retried = Await.await("the retry answered", SETTLE).pollInterval(Duration.ofMillis(500))
                .until(() -> customer.place(order), r -> r.status() < 500);
        assertThat(retried.status()).as(retried.raw()).isIn(200, 201);
        assertThat(retried.text("status")).isEqualTo("FILLED");
        assertThat(retried.text("filledBy")).isEqualTo(EXECUTING);
        assertThat(new BigDecimal(retried.text("fillPrice"))).as("the fill decided the first time").isEqualByComparingTo("220.00");
        String orderId = retried.text("orderId");

        // the owner's region learns of the fill through replication: once there, it is there once, and the cash went once
        Await.await("the fill in " + OWNING + "'s replicas", SETTLE).pollInterval(Duration.ofMillis(250))
                .until(() -> executions(customer, orderId) > 0);
        assertThat(executions(customer, orderId)).isEqualTo(1);
        Await.await("the cash taken in " + OWNING, SETTLE).pollInterval(Duration.ofMillis(250))
                .until(() -> cash(customer).compareTo(before.subtract(cost)) == 0);
        assertThat(availableCash()).as("the owner's hold released, the price paid once").isEqualByComparingTo(before.subtract(cost));
    }

    private BigDecimal availableCash() {
        return brokers.bean(OWNING, Accounts.class).withAccount(CUSTOMER, AccountView::availableCash);
    }

    private static long executions(TestSession customer, String orderId) {
        return customer.getAll("/api/transactions").stream().filter(t -> t.path("orderId").asString().equals(orderId)).count();
    }

    private static BigDecimal cash(TestSession customer) {
        return new BigDecimal(customer.get("/api/holdings").text("cash"));
    }

    private static Map<String, Object> market(String symbol, long quantity) {
        Map<String, Object> order = new LinkedHashMap<>();
        order.put("clientOrderId", "timeout-" + UUID.randomUUID());
        order.put("symbol", symbol);
        order.put("side", "BUY");
        order.put("type", "MARKET");
        order.put("quantity", quantity);
        return order;
    }
}
