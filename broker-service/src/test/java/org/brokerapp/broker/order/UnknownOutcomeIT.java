package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.Test;

/**
 * A placement whose outcome is unknown, owner to Kafka to the matching region, on the real stack:
 * the home region's Kafka dead and the matching region cut off, so the order's event reaches
 * neither path and the customer is answered 503 (retry). Nobody retries. The outage outlasts every
 * timeout and the owner's own attempts to finish the placement; once both are back, the owner
 * settles it by itself, the matching region fills it, and the owner's account equals the ledger.
 * Before the owner settled such orders, the fill took the cash but never brought the shares (an
 * unsettled order's credit waits for its write to be known durable), and the seam audit differed.
 */
@BrokersTest
class UnknownOutcomeIT {

    private static final String HOME = "us-east-1";
    private static final String AWAY = "ap-southeast-2";
    /** Homed in us-east-1 (load customers take the regions in turn), used by no other test. */
    private static final String CUSTOMER = "load-15";
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final Pattern UNSETTLED = Pattern.compile("(?m)^broker_orders_unsettled(?:\\{[^}]*})? ([0-9.E]+)");
    private static final Pattern STILL_UNKNOWN = Pattern.compile("(?m)^broker_orders_settling_total\\{[^}]*outcome=\"still.unknown\"[^}]*} ([0-9.E]+)");

    @Test
    void aPlacementOfUnknownOutcomeIsSettledByItsOwnerOnceTheServersAnswerAndFillsOnce(Brokers brokers) {
        TestSession customer = brokers.client(HOME, CUSTOMER, CUSTOMER + "-pw");
        TestSession customerAway = brokers.client(AWAY, CUSTOMER, CUSTOMER + "-pw");
        BigDecimal availableBefore = new BigDecimal(customer.get("/api/holdings").text("availableCash"));
        String orderId;

        brokers.stack().killKafka(HOME);
        brokers.stack().cut(AWAY);
        try {
            Reply placed = customer.place(Map.of("clientOrderId", "unknown-outcome", "symbol", "WES", "side", "BUY", "type", "LIMIT",
                    "quantity", 10, "limitPrice", "85.00"));
            assertThat(placed.status()).as(placed.raw()).isEqualTo(503);
            Matcher named = Pattern.compile("order ([0-9a-f-]{36})").matcher(placed.text("detail"));
            assertThat(named.find()).as(placed.raw()).isTrue();
            orderId = named.group(1);

            // its cash is held, by the ledger's reservation or as pending: never spendable twice
            Reply holdings = customer.get("/api/holdings");
            assertThat(new BigDecimal(holdings.text("availableCash"))).as(holdings.raw())
                    .isEqualByComparingTo(availableBefore.subtract(new BigDecimal("850.00")));
            assertThat(brokers.metric(HOME, UNSETTLED)).as("placements of unknown outcome").isEqualTo(1);
            // longer than the owner waits before it settles: its attempts fail while the outage lasts
            double failedBefore = brokers.metric(HOME, STILL_UNKNOWN);
            Await.until("the owner's attempts to settle failing during the outage", SETTLE,
                    () -> brokers.metric(HOME, STILL_UNKNOWN) >= failedBefore + 2);
        } finally {
            brokers.stack().heal(AWAY);
            brokers.stack().restartKafka(HOME);
        }

        Await.until("the owner to settle the placement", SETTLE, () -> brokers.metric(HOME, UNSETTLED) == 0);
        assertThat(customer.get("/api/orders/" + orderId).text("status")).isEqualTo("OPEN");
        try (TickPublisher awayTicks = brokers.ticks(AWAY)) {
            Reply filled = customerAway.awaitFilledTicking(orderId, () -> awayTicks.tick("WES", "ASX", "85.00"), SETTLE);
            assertThat(filled.text("filledBy")).isEqualTo(AWAY);
        }
        TestSession operator = brokers.operator(HOME);
        Reply audit = Await.until("the owner's account to equal the ledger", SETTLE, () -> operator.get("/admin/accounts/" + CUSTOMER),
                r -> r.status() == 200 && r.body().path("agrees").asBoolean());
        assertThat(audit.body().path("owner").path("positions").path("WES").asLong()).as(audit.raw()).isEqualTo(10);
        assertThat(customer.get("/api/holdings").body().path("pending").size()).isZero();
    }
}
