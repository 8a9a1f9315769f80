package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.Test;

/**
 * STOP_LIMIT orders on the real two-region stack (issue #57, part 3): a stop that, once triggered,
 * trades only at its limit or better. Placed in Sydney for a customer of us-east-1 (the placement
 * crosses the WAN to the owner, the order to the decider), triggered by us-east-1's NYSE ticks.
 */
@BrokersTest
class StopLimitIT {

    private static final String US = "us-east-1";
    private static final String SYDNEY = "ap-southeast-2";
    /** Homed in us-east-1, used by no other test. */
    private static final String CUSTOMER = "load-23";
    /** A NYSE symbol no other test ticks. */
    private static final String SYMBOL = "SCHW";
    private static final Duration SETTLE = Duration.ofSeconds(20);

    @Test
    void aTriggeredStopLimitTradesOnlyAtItsLimitOrBetterOnBothSides(Brokers brokers) {
        TestSession away = brokers.client(SYDNEY, CUSTOMER, CUSTOMER + "-pw");
        TestSession home = brokers.client(US, CUSTOMER, CUSTOMER + "-pw");
        BigDecimal cashBefore = new BigDecimal(home.get("/api/holdings").text("cash"));
        try (TickPublisher ticks = brokers.ticks(US)) {
            Reply buy = place(away, "BUY", "95.00", "95.50");
            assertThat(buy.status()).as(buy.raw()).isEqualTo(201);
            assertThat(buy.text("type")).isEqualTo("STOP_LIMIT");
            assertThat(new BigDecimal(buy.text("stopPrice"))).isEqualByComparingTo("95.00");
            assertThat(new BigDecimal(buy.text("limitPrice"))).isEqualByComparingTo("95.50");
            String buyId = buy.text("orderId");
            Await.until("the order at its decider", SETTLE, () -> home.get("/api/orders/" + buyId).status() == 200);
            // the reservation is the limit's: 10 x 95.50
            assertThat(new BigDecimal(home.get("/api/holdings").text("reservedCash"))).isGreaterThanOrEqualTo(new BigDecimal("955.00"));

            stillOpenAfter(ticks, home, buyId, "94.99"); // below the stop: not triggered
            stillOpenAfter(ticks, home, buyId, "96.00"); // a gap through the stop beyond the limit: triggered, a BUY LIMIT at 95.50 now
            stillOpenAfter(ticks, home, buyId, "95.60"); // still above the limit, though above the stop too
            ticks.tick(SYMBOL, "NYSE", "95.40");
            Reply bought = home.awaitStatus(buyId, "FILLED", SETTLE);
            assertThat(new BigDecimal(bought.text("fillPrice"))).isEqualByComparingTo("95.40");
            assertThat(bought.text("type")).isEqualTo("STOP_LIMIT");

            Reply sell = place(away, "SELL", "94.00", "93.50");
            assertThat(sell.status()).as(sell.raw()).isEqualTo(201);
            String sellId = sell.text("orderId");
            Await.until("the order at its decider", SETTLE, () -> home.get("/api/orders/" + sellId).status() == 200);
            stillOpenAfter(ticks, home, sellId, "94.01"); // above the stop
            ticks.tick(SYMBOL, "NYSE", "93.80"); // through the stop, within the limit: filled at the tick's price
            Reply sold = home.awaitStatus(sellId, "FILLED", SETTLE);
            assertThat(new BigDecimal(sold.text("fillPrice"))).isEqualByComparingTo("93.80");
        }
        // bought 10 at 95.40, sold 10 at 93.80: the cash moved by exactly the fills, nothing stays reserved for them
        Reply holdings = home.awaitHoldings(h -> new BigDecimal(h.text("cash")).compareTo(cashBefore.subtract(new BigDecimal("16.00"))) == 0, SETTLE);
        assertThat(holdings.body().path("positions").path(SYMBOL).asLong(0)).isZero();
    }

    private static void stillOpenAfter(TickPublisher ticks, TestSession home, String orderId, String price) {
        ticks.tick(SYMBOL, "NYSE", price);
        home.awaitPrice(SYMBOL, price, SETTLE);
        Brokers.sleep(300);
        assertThat(home.get("/api/orders/" + orderId).text("status")).as("after a tick at " + price).isEqualTo("OPEN");
    }

    private static Reply place(TestSession customer, String side, String stop, String limit) {
        Map<String, Object> order = new LinkedHashMap<>();
        order.put("clientOrderId", "sl-" + UUID.randomUUID());
        order.put("symbol", SYMBOL);
        order.put("side", side);
        order.put("type", "STOP_LIMIT");
        order.put("quantity", 10);
        order.put("stopPrice", new BigDecimal(stop));
        order.put("limitPrice", new BigDecimal(limit));
        return customer.place(order);
    }
}
