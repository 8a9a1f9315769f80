package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Time in force on the real two-region stack (issue #57, part 1). A DAY or GTD order's expiry is
 * fixed by its customer's owner and decided by its symbol's one decider, across the WAN: the order
 * is EXPIRED once, in every region, and its reservation goes back to the customer.
 */
@BrokersTest
class TimeInForceIT {

    private static final String US = "us-east-1";
    private static final String SYDNEY = "ap-southeast-2";
    /** Homed in Sydney, used by no other test. */
    private static final String SYDNEY_CUSTOMER = "load-22";
    /** Homed in us-east-1, used by no other test. */
    private static final String US_CUSTOMER = "load-21";
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    /**
     * The must-show: a DAY order on a NYSE symbol, placed in Sydney by a Sydney customer, expires
     * at the New York close. Sydney's broker (the customer's owner, which fixes the expiry) runs
     * with a NYSE session that closes 40 s from now, New York time, every day of the week; the
     * decider in us-east-1 expires it then, and the EXPIRED event frees the cash in Sydney.
     */
    @Test
    void aDayOrderOnANyseSymbolPlacedInSydneyExpiresAtTheNewYorkClose(Brokers brokers) {
        ZonedDateTime now = ZonedDateTime.now(NEW_YORK);
        if (now.toLocalTime().isAfter(LocalTime.of(23, 58))) {
            // a session cannot close after midnight: wait for the new day (at most two minutes, once a day)
            Brokers.sleep(Duration.between(now, now.plusDays(1).truncatedTo(ChronoUnit.DAYS).plusSeconds(5)).toMillis());
        }
        LocalTime close = LocalTime.now(NEW_YORK).plusSeconds(40).truncatedTo(ChronoUnit.SECONDS);
        brokers.restartWith(SYDNEY, Map.of("broker.sessions.exchanges.NYSE.open", "00:00", "broker.sessions.exchanges.NYSE.close", close.toString(),
                "broker.sessions.exchanges.NYSE.trading-days", "MONDAY,TUESDAY,WEDNESDAY,THURSDAY,FRIDAY,SATURDAY,SUNDAY",
                "broker.sessions.exchanges.NYSE.holidays", ""));
        try {
            TestSession customer = brokers.client(SYDNEY, SYDNEY_CUSTOMER, SYDNEY_CUSTOMER + "-pw");
            BigDecimal reservedBefore = reserved(customer);
            Instant closes = ZonedDateTime.now(NEW_YORK).with(close).toInstant();

            Reply placed = place(customer, order("IBM", "DAY", null));
            assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
            assertThat(Instant.parse(placed.text("expiresAt"))).isEqualTo(closes);
            assertThat(placed.text("timeInForce")).isEqualTo("DAY");
            assertThat(reserved(customer)).isEqualByComparingTo(reservedBefore.add(new BigDecimal("10.00")));
            String orderId = placed.text("orderId");

            Reply expired = customer.awaitStatus(orderId, "EXPIRED", Duration.ofSeconds(90));
            Instant closedAt = Instant.parse(expired.text("closedAt"));
            assertThat(closedAt).as("expired by the decider at the close, not before").isAfterOrEqualTo(closes).isBefore(closes.plusSeconds(5));
            customer.awaitHoldings(h -> new BigDecimal(h.text("reservedCash")).compareTo(reservedBefore) == 0, Duration.ofSeconds(15));
            // the decider's region has the same outcome
            assertThat(brokers.client(US, SYDNEY_CUSTOMER, SYDNEY_CUSTOMER + "-pw").awaitStatus(orderId, "EXPIRED", Duration.ofSeconds(15))
                    .text("closedAt")).isEqualTo(expired.text("closedAt"));
        } finally {
            brokers.restartWith(SYDNEY, Map.of());
        }
    }

    /**
     * A GTD order on an ASX symbol placed by a us-east-1 customer is expired by Sydney's decider at
     * its time, even though that decider restarted in between (it rebuilds the order, and when it
     * expires, from open_orders); a cancel afterwards finds it expired, and changes nothing.
     */
    @Test
    void aGtdOrderExpiresAtItsTimeAcrossARestartOfItsDecider(Brokers brokers) {
        TestSession customer = brokers.client(US, US_CUSTOMER, US_CUSTOMER + "-pw");
        BigDecimal reservedBefore = reserved(customer);
        Instant at = Instant.now().plusSeconds(30).truncatedTo(ChronoUnit.MILLIS);

        Reply placed = place(customer, order("BHP", "GTD", at));
        assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
        assertThat(Instant.parse(placed.text("expiresAt"))).isEqualTo(at);
        String orderId = placed.text("orderId");
        customer.awaitHoldings(h -> new BigDecimal(h.text("reservedCash")).compareTo(reservedBefore.add(new BigDecimal("10.00"))) == 0,
                Duration.ofSeconds(15));

        brokers.restartWith(SYDNEY, Map.of());
        assertThat(customer.get("/api/orders/" + orderId).text("status")).as("not expired before its time").isEqualTo("OPEN");

        Reply expired = customer.awaitStatus(orderId, "EXPIRED", Duration.ofSeconds(60));
        assertThat(Instant.parse(expired.text("closedAt"))).isAfterOrEqualTo(at);
        customer.awaitHoldings(h -> new BigDecimal(h.text("reservedCash")).compareTo(reservedBefore) == 0, Duration.ofSeconds(15));

        Reply cancel = customer.delete("/api/orders/" + orderId);
        assertThat(cancel.status()).as(cancel.raw()).isEqualTo(409);
        assertThat(cancel.text("detail")).contains("EXPIRED");
        assertThat(customer.get("/api/orders/" + orderId).text("status")).isEqualTo("EXPIRED");
    }

    /** A GTC order does not expire, and an unknown or impossible time in force is a 400 naming the field. */
    @Test
    void aTimeInForceIsKeptAndABadOneRefused(Brokers brokers) {
        TestSession customer = brokers.client(US, US_CUSTOMER, US_CUSTOMER + "-pw");

        Reply gtc = place(customer, order("IBM", "GTC", null));
        assertThat(gtc.status()).as(gtc.raw()).isEqualTo(201);
        assertThat(gtc.text("timeInForce")).isEqualTo("GTC");
        assertThat(gtc.body().path("expiresAt").isNull()).isTrue();
        assertThat(customer.delete("/api/orders/" + gtc.text("orderId")).status()).isIn(200, 202);
        customer.awaitStatus(gtc.text("orderId"), "CANCELLED", Duration.ofSeconds(15));

        for (Map<String, Object> bad : List.of(order("IBM", "SOMETIMES", null), order("IBM", "GTD", null), order("IBM", "IOC", null),
                order("IBM", "GTD", Instant.now().minusSeconds(60)))) {
            Reply refused = customer.place(bad);
            assertThat(refused.status()).as(refused.raw()).isEqualTo(400);
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(refused.raw()).containsAnyOf("timeInForce", "expireAt").doesNotContain("Exception");
        }
    }

    /** {@code GET /api/clock} answers each exchange's session in its own time zone, consistently with its own open and close. */
    @Test
    void theClockAnswersEachExchangesSession(Brokers brokers) {
        Reply clock = brokers.client(SYDNEY, SYDNEY_CUSTOMER, SYDNEY_CUSTOMER + "-pw").get("/api/clock");

        assertThat(clock.status()).as(clock.raw()).isEqualTo(200);
        Instant now = Instant.parse(clock.text("timestamp"));
        Map<String, String> zones = new java.util.TreeMap<>();
        for (JsonNode exchange : clock.body().path("exchanges")) {
            zones.put(exchange.path("exchange").asString(), exchange.path("timeZone").asString());
            Instant nextOpen = Instant.parse(exchange.path("nextOpen").asString());
            Instant nextClose = Instant.parse(exchange.path("nextClose").asString());
            assertThat(nextClose).isAfter(now);
            if (exchange.path("isOpen").asBoolean()) {
                assertThat(nextOpen).as("open: the next open is after this close").isAfter(nextClose);
            } else {
                assertThat(nextOpen).as("closed: the next session opens before it closes").isAfter(now).isBefore(nextClose);
            }
        }
        assertThat(zones).containsEntry("NYSE", "America/New_York").containsEntry("NASDAQ", "America/New_York")
                .containsEntry("ASX", "Australia/Sydney");
    }

    private static BigDecimal reserved(TestSession customer) {
        return new BigDecimal(customer.get("/api/holdings").text("reservedCash"));
    }

    /** As a client would: a 503 (an account being taken by its owner after a restart) is asked again with the same clientOrderId. */
    private static Reply place(TestSession customer, Map<String, Object> order) {
        return Await.until("an answer other than 503", Duration.ofSeconds(30), () -> customer.place(order), r -> r.status() != 503);
    }

    /** A BUY LIMIT of 10 at 1.00: far below the market, so it rests until it expires or is cancelled. */
    private static Map<String, Object> order(String symbol, String timeInForce, Instant expireAt) {
        Map<String, Object> order = new java.util.LinkedHashMap<>(Map.of("clientOrderId", "tif-" + UUID.randomUUID(), "symbol", symbol, "side",
                "BUY", "type", "LIMIT", "quantity", 10, "limitPrice", "1.00", "timeInForce", timeInForce));
        if (expireAt != null) {
            order.put("expireAt", expireAt.toString());
        }
        return order;
    }
}
