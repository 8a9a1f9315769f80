package org.brokerapp.broker.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import org.brokerapp.api.Side;
import org.brokerapp.broker.peer.PeerSigner;
import org.brokerapp.broker.support.BrokerProcess;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.SignedCalls;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A routed MARKET order sent again, to the other instance of the executing region, as the owner's
 * router does after an attempt that timed out (a region's front may hand the two attempts to
 * different instances). Both instances pass it to the one deciding on the symbol, so the second
 * attempt is answered with the first one's execution (200, same fill), never executed again at the
 * price of its own moment. Before, the broker-kill drill with two instances per region found an
 * order answered at one price while the ledger held another.
 */
@BrokersTest
class MarketOrderDecidedOnceIT {

    private static final String HOME = "us-east-1";
    private static final String EXECUTOR = "ap-southeast-2";
    /** Homed in us-east-1 (odd load customers are) and used by no other test: its ledger gets a fill its owner never reserved. */
    private static final String CUSTOMER = "load-19";
    private static final String SYMBOL = "COH";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Brokers brokers;

    MarketOrderDecidedOnceIT(Brokers brokers) {
        this.brokers = brokers;
    }

    @Test
    void anAttemptReachingTheOtherInstanceIsAnsweredWithTheFirstExecution() throws Exception {
        PeerSigner home = brokers.bean(HOME, PeerSigner.class);
        URI first = URI.create(brokers.client(EXECUTOR, null, null).base() + OrderRouter.MARKET_ORDERS);
        try (BrokerProcess second = BrokerProcess.start(brokers.stack(), EXECUTOR, Path.of("target", "market-decided-once", "second.log"));
             TickPublisher ticks = brokers.ticks(EXECUTOR)) {
            URI other = URI.create(second.client(null, null).base() + OrderRouter.MARKET_ORDERS);
            RoutedMarketOrder order = new RoutedMarketOrder(CUSTOMER, "once-" + UUID.randomUUID(), SYMBOL, Side.BUY, 1, HOME,
                    new BigDecimal("1000.0000"), false);
            ticks.tick(SYMBOL, "ASX", "300.00");

            // 503 while the symbol's lease moves between the two instances: nothing executed, the same attempt again
            HttpResponse<String> executed = Await.until("the first attempt executed", Duration.ofSeconds(90), () -> send(home, first, order),
                    answer -> answer.statusCode() != 503 && answer.statusCode() != 422);
            assertThat(executed.statusCode()).as(executed.body()).isEqualTo(201);
            JsonNode fill = JSON.readTree(executed.body());

            ticks.tick(SYMBOL, "ASX", "301.00");
            Thread.sleep(1_000);
            HttpResponse<String> again = send(home, other, order);

            assertThat(again.statusCode()).as("the same attempt at the other instance: %s", again.body()).isEqualTo(200);
            JsonNode answered = JSON.readTree(again.body());
            assertThat(answered.path("orderId").asString()).isEqualTo(fill.path("orderId").asString());
            assertThat(new BigDecimal(answered.path("fillPrice").asString())).isEqualByComparingTo(new BigDecimal(fill.path("fillPrice").asString()));
            assertThat(answered.path("filledAt").asString()).isEqualTo(fill.path("filledAt").asString());
            HttpResponse<String> retried = send(home, other, order.asRetry());
            assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
            assertThat(new BigDecimal(JSON.readTree(retried.body()).path("fillPrice").asString()))
                    .isEqualByComparingTo(new BigDecimal(fill.path("fillPrice").asString()));
        }
    }

    private static HttpResponse<String> send(PeerSigner signer, URI uri, RoutedMarketOrder order) throws Exception {
        return HTTP.send(SignedCalls.post(signer, uri, EXECUTOR, JSON.writeValueAsBytes(order), order.customerId()), HttpResponse.BodyHandlers.ofString());
    }
}
