package org.brokerapp.broker.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Map;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.Test;

/**
 * The owner keeps only open, unsettled and lately closed orders (test brokers: closed ones leave
 * after 2 s). A retry of an order it has let go of, customer to owner to ledger on the real stack,
 * is still the same order: answered from the ledger, reserving nothing, placing nothing twice.
 * Was (#55): every order a customer ever placed stayed in the owner's memory.
 */
@BrokersTest
class BoundedOwnerMemoryIT {

    private static final String HOME = "us-east-1";
    /** Homed in us-east-1, used by no other test. */
    private static final String CUSTOMER = "load-19";

    @Test
    void aRetryOfAnOrderClosedLongAgoIsAnsweredFromTheLedgerAndReservesNothing(Brokers brokers) {
        TestSession customer = brokers.client(HOME, CUSTOMER, CUSTOMER + "-pw");
        TestSession operator = brokers.operator(HOME);
        Map<String, Object> cancelledOrder = Map.of("clientOrderId", "forgotten-cancel", "symbol", "MRK", "side", "BUY", "type", "LIMIT",
                "quantity", 5, "limitPrice", "1.00");
        Map<String, Object> filledOrder = Map.of("clientOrderId", "forgotten-fill", "symbol", "MRK", "side", "BUY", "type", "LIMIT",
                "quantity", 5, "limitPrice", "90.00");
        Reply cancelled = customer.place(cancelledOrder);
        Reply filled = customer.place(filledOrder);
        assertThat(cancelled.status()).as(cancelled.raw()).isIn(200, 201);
        assertThat(filled.status()).as(filled.raw()).isIn(200, 201);
        assertThat(customer.delete("/api/orders/" + cancelled.text("orderId")).status()).isIn(200, 202);
        customer.awaitStatus(cancelled.text("orderId"), "CANCELLED", java.time.Duration.ofSeconds(15));
        try (TickPublisher ticks = brokers.ticks(HOME)) {
            customer.awaitFilledTicking(filled.text("orderId"), () -> ticks.tick("MRK", "NYSE", "89.00"), java.time.Duration.ofSeconds(30));
        }
        BigDecimal available = new BigDecimal(Await.until("the fill booked by the owner", java.time.Duration.ofSeconds(15),
                () -> operator.get("/admin/accounts/" + CUSTOMER), r -> r.status() == 200 && r.body().path("agrees").asBoolean())
                .body().path("owner").path("cash").asString());

        // longer than the owner keeps closed orders (2 s, its sweep every second)
        Brokers.sleep(4_000);
        assertThat(brokers.bean(HOME, Accounts.class).ordersInMemory(CUSTOMER)).as("closed orders left in the owner's memory").isZero();
        Reply retriedCancel = customer.place(cancelledOrder);
        Reply retriedFill = customer.place(filledOrder);

        assertThat(retriedCancel.status()).as(retriedCancel.raw()).isEqualTo(200);
        assertThat(retriedCancel.text("status")).isEqualTo("CANCELLED");
        assertThat(retriedFill.status()).as(retriedFill.raw()).isEqualTo(200);
        assertThat(retriedFill.text("status")).isEqualTo("FILLED");
        Reply audit = operator.get("/admin/accounts/" + CUSTOMER);
        assertThat(audit.body().path("agrees").asBoolean()).as(audit.raw()).isTrue();
        assertThat(new BigDecimal(audit.body().path("owner").path("cash").asString())).isEqualByComparingTo(available);
        assertThat(audit.body().path("owner").path("reservedCash").decimalValue()).isZero();
        // a different order under a used clientOrderId is still refused, though the first has left memory
        Reply reused = customer.place(Map.of("clientOrderId", "forgotten-cancel", "symbol", "MRK", "side", "BUY", "type", "LIMIT",
                "quantity", 6, "limitPrice", "1.00"));
        assertThat(reused.status()).as(reused.raw()).isEqualTo(400);
    }
}
