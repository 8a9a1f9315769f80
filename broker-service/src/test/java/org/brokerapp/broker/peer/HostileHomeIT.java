package org.brokerapp.broker.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.brokerapp.broker.core.OrderIds;
import org.brokerapp.broker.routing.OrderRouter;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue #55's routed-answer finding on the real stack: the owner booked whatever fill the region
 * executing a routed MARKET order answered, at any price, and the answer was not signed. Here the
 * executing region's broker is replaced by a hostile one on its address, holding its real key:
 * a fill at a negative price, one costing more than was reserved, and one signed by another
 * region's key. The owner books none of them; the customer hears 502 (or, unsigned, no answer),
 * and the cash stays held until the ledger says what happened.
 */
@BrokersTest
class HostileHomeIT {

    /** Executes NYSE orders: its broker is replaced by the hostile one. */
    private static final String HOME = "us-east-1";
    private static final String OWNER = "ap-southeast-2";
    /** Homed in ap-southeast-2, used by no other test. */
    private static final String CUSTOMER = "load-6";
    private static final String SYMBOL = "BA";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The fill price the hostile region answers next, and with whose key it signs. */
    private volatile BigDecimal answeredPrice;
    private volatile PeerSigner answeringAs;

    @Test
    void theOwnerBooksNoFillThatCannotBeTheOrdersAndNoAnswerNotSignedByTheRegionCalled(Brokers brokers) throws Exception {
        TestSession customer = brokers.client(OWNER, CUSTOMER, CUSTOMER + "-pw");
        try (TickPublisher ticks = brokers.ticks(HOME)) {
            ticks.tick(SYMBOL, "NYSE", "210.00");
        }
        customer.awaitPrice(SYMBOL, "210.00", Duration.ofSeconds(30));
        PeerSigner home = brokers.bean(HOME, PeerSigner.class);
        PeerSigner owner = brokers.bean(OWNER, PeerSigner.class);
        BigDecimal cash = holdings(customer).path("cash").decimalValue();

        answeringAs = home;
        brokers.stop(HOME);
        HttpServer hostile = hostileHome(brokers.stack().brokerAddress(HOME));
        try {
            CircuitBreaker toHome = brokers.bean(OWNER, CircuitBreakerRegistry.class).circuitBreaker(HOME);
            PeerLinks links = brokers.bean(OWNER, PeerLinks.class);
            Await.until("the owner's pings answered by the hostile region", Duration.ofSeconds(30),
                    () -> links.silentFor(HOME).toMillis() < 500 && toHome.getState() == CircuitBreaker.State.CLOSED);

            answeredPrice = new BigDecimal("-1000.00");
            Reply negative = customer.place(buy(10));
            answeredPrice = new BigDecimal("1000000.00");
            Reply tooDear = customer.place(buy(20));
            answeringAs = owner;
            answeredPrice = new BigDecimal("210.00");
            Reply signedByAnother = customer.place(buy(1));

            assertThat(negative.status()).as(negative.raw()).isEqualTo(502);
            assertThat(negative.contentType()).startsWith("application/problem+json");
            assertThat(negative.text("detail")).contains("above 0");
            assertThat(tooDear.status()).as(tooDear.raw()).isEqualTo(502);
            assertThat(tooDear.text("detail")).contains("more than");
            assertThat(signedByAnother.status()).as("no answer from the region called: " + signedByAnother.raw()).isIn(503, 504);
            JsonNode after = holdings(customer);
            assertThat(after.path("cash").decimalValue()).as("nothing booked").isEqualByComparingTo(cash);
            assertThat(after.path("positions").has(SYMBOL)).as("no shares booked: " + after).isFalse();
            assertThat(after.path("availableCash").decimalValue()).as("the cash stays held: " + after).isLessThan(cash);
            Reply audit = brokers.operator(OWNER).get("/admin/accounts/" + CUSTOMER);
            assertThat(audit.body().path("agrees").asBoolean()).as(audit.raw()).isTrue();
            assertThat(audit.body().path("owner").path("cash").decimalValue()).isEqualByComparingTo(cash);
        } finally {
            hostile.stop(0);
            brokers.restart(HOME);
        }
    }

    private static JsonNode holdings(TestSession customer) {
        Reply holdings = customer.get("/api/holdings");
        assertThat(holdings.status()).as(holdings.raw()).isEqualTo(200);
        return holdings.body();
    }

    private static Map<String, Object> buy(long quantity) {
        return Map.of("clientOrderId", "hostile-" + UUID.randomUUID(), "symbol", SYMBOL, "side", "BUY", "type", "MARKET", "quantity", quantity);
    }

    /** Answers the owner's pings, and every routed MARKET order with a signed fill at {@link #answeredPrice}. */
    private HttpServer hostileHome(String address) {
        int colon = address.lastIndexOf(':');
        InetSocketAddress on = new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
        HttpServer server = bind(on);
        server.createContext("/actuator/health/liveness", exchange -> answer(exchange, 200, "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8)));
        server.createContext(OrderRouter.MARKET_ORDERS, exchange -> {
            JsonNode order = JSON.readTree(exchange.getRequestBody().readAllBytes());
            answer(exchange, 201, filled(order));
        });
        server.start();
        return server;
    }

    /** The address, as soon as the stopped broker has let go of it. */
    private static HttpServer bind(InetSocketAddress on) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                return HttpServer.create(on, 0);
            } catch (IOException inUse) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the home broker's address " + on + " is still taken", inUse);
                }
                Brokers.sleep(200);
            }
        }
    }

    private byte[] filled(JsonNode routed) {
        String customer = routed.path("customerId").asString();
        String clientOrderId = routed.path("clientOrderId").asString();
        Instant now = Instant.now();
        Map<String, Object> order = new LinkedHashMap<>();
        order.put("orderId", OrderIds.of(customer, clientOrderId).toString());
        order.put("customerId", customer);
        order.put("clientOrderId", clientOrderId);
        order.put("symbol", routed.path("symbol").asString());
        order.put("exchange", "NYSE");
        order.put("side", routed.path("side").asString());
        order.put("type", "MARKET");
        order.put("quantity", routed.path("quantity").asLong());
        order.put("status", "FILLED");
        order.put("placedRegion", routed.path("placedRegion").asString());
        order.put("placedAt", now.toString());
        order.put("fillPrice", answeredPrice);
        order.put("filledAt", now.toString());
        order.put("filledBy", HOME);
        order.put("closedAt", now.toString());
        return JSON.writeValueAsBytes(order);
    }

    private void answer(HttpExchange exchange, int status, byte[] body) throws IOException {
        String nonce = exchange.getRequestHeaders().getFirst(PeerSignature.NONCE);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        // signed as the region called would sign it (or, when answeringAs is another region's signer, as that region)
        exchange.getResponseHeaders().add(PeerSignature.ANSWER_SIGNATURE, answeringAs.signAnswer(nonce == null ? "" : nonce, status, body));
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }
}
