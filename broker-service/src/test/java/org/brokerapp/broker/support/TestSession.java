package org.brokerapp.broker.support;

import java.math.BigDecimal;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.function.Predicate;

import org.brokerapp.client.BearerTokens;
import org.brokerapp.client.BrokerSession;
import org.brokerapp.infra.host.Await;

/** A session of the broker client with the waits the tests need, under the house rule for waiting ({@link Await}). */
public final class TestSession extends BrokerSession {

    TestSession(String base, HttpClient http, BearerTokens tokens, String login, String password) {
        super(base, http, tokens, login, password);
    }

    /** Polls an order until it has {@code status}; fails with the last answer otherwise. */
    public Reply awaitStatus(String orderId, String status, Duration timeout) {
        return Await.until("order " + orderId + " " + status, timeout, () -> get("/api/orders/" + orderId),
                r -> r.status() == 200 && r.text("status").equals(status));
    }

    /** Runs {@code tick} every 200 ms until the order reads FILLED (a tick consumer may still be reconnecting); fails with the last answer otherwise. */
    public Reply awaitFilledTicking(String orderId, Runnable tick, Duration timeout) {
        return Await.until("order " + orderId + " filled", timeout, () -> {
            tick.run();
            Brokers.sleep(200);
            return get("/api/orders/" + orderId);
        }, r -> r.status() == 200 && "FILLED".equals(r.text("status")));
    }

    /** Polls the customer's holdings until {@code done} says so; fails with the last answer otherwise. */
    public Reply awaitHoldings(Predicate<Reply> done, Duration timeout) {
        return Await.until("holdings as awaited", timeout, () -> get("/api/holdings"), r -> r.status() == 200 && done.test(r));
    }

    /** Polls the symbol's last price until it is {@code price}: the broker has seen that tick. */
    public void awaitPrice(String symbol, String price, Duration timeout) {
        Await.until("the broker sees " + symbol + " at " + price, timeout, () -> get("/api/prices/" + symbol),
                r -> r.status() == 200 && new BigDecimal(r.text("price")).compareTo(new BigDecimal(price)) == 0);
    }
}
