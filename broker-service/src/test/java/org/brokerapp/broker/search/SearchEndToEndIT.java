package org.brokerapp.broker.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.brokerapp.infra.servers.SearchLogins;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The whole read path with the real brokers: orders placed, filled and cancelled over the REST API
 * become order events, each region's indexer puts them into its Elasticsearch node, and the search
 * API answers from every region, each order once, in its latest state, to its own customer only.
 */
@BrokersTest
class SearchEndToEndIT {

    private static final String EAST = "us-east-1";
    private static final String SYDNEY = "ap-southeast-2";
    private static final Duration INDEXED = Duration.ofSeconds(60);

    private final Brokers brokers;

    SearchEndToEndIT(Brokers brokers) {
        this.brokers = brokers;
    }

    @Test
    void placementsFillsAndCancelsAreSearchableFromEveryRegionOnceEachInTheirLatestState() {
        // load-3 is at home in us-east-1, load-4 in Sydney (its orders placed in us-east-1 are decided by Sydney, filled by us-east-1)
        TestSession east = brokers.client(EAST, "load-3", "load-3-pw");
        TestSession sydneyCustomerInEast = brokers.client(EAST, "load-4", "load-4-pw");
        Map<String, String> expected = new HashMap<>();

        String filled1 = placed(east, "LIMIT", "TMO", 2, "560.00");
        String filled2 = placed(east, "LIMIT", "TMO", 3, "559.00");
        String open = placed(east, "LIMIT", "LLY", 1, "700.00");
        String cancelled = placed(east, "LIMIT", "LLY", 1, "701.00");
        String awayFilled = placed(sydneyCustomerInEast, "LIMIT", "TMO", 4, "560.00");
        assertThat(east.delete("/api/orders/" + cancelled).status()).isIn(200, 202);
        expected.put(filled1, "FILLED");
        expected.put(filled2, "FILLED");
        expected.put(open, "OPEN");
        expected.put(cancelled, "CANCELLED");

        try (TickPublisher ticks = brokers.ticks(EAST)) {
            ticks.tick("TMO", "NYSE", "558.50");
            east.awaitStatus(filled1, "FILLED", INDEXED);
            east.awaitStatus(filled2, "FILLED", INDEXED);
            sydneyCustomerInEast.awaitStatus(awayFilled, "FILLED", INDEXED);
        }
        east.awaitStatus(cancelled, "CANCELLED", INDEXED);

        for (String region : List.of(EAST, SYDNEY)) {
            TestSession client = brokers.client(region, "load-3", "load-3-pw");
            JsonNode orders = Await.until("load-3's orders searchable in their latest state from " + region, INDEXED,
                    () -> client.get("/api/orders/search?size=100").body(), body -> statuses(body).equals(expected));
            assertThat(ids(orders)).as("each order once").doesNotHaveDuplicates().hasSize(expected.size());
            assertThat(orders.path("regions").path("answered")).extracting(JsonNode::asString).containsExactlyInAnyOrder(EAST, SYDNEY);
            assertThat(orders.path("regions").path("missing")).isEmpty();

            JsonNode trades = Await.until("load-3's trades searchable from " + region, INDEXED,
                    () -> client.get("/api/trades?symbol=TMO").body(), body -> body.path("items").size() == 2);
            assertThat(ids(trades)).containsExactlyInAnyOrder(filled1, filled2);
            for (JsonNode trade : trades.path("items")) {
                assertThat(new BigDecimal(trade.path("fillPrice").asString())).isEqualByComparingTo("558.50");
            }
        }

        // an order decided in one region and filled in another is known to both clusters: the search shows it once, FILLED
        JsonNode away = Await.until("load-4's order placed in us-east-1 searchable as FILLED", INDEXED,
                () -> sydneyCustomerInEast.get("/api/orders/search?symbol=TMO").body(),
                body -> "FILLED".equals(statuses(body).get(awayFilled)));
        assertThat(ids(away)).containsExactly(awayFilled);
        assertThat(ids(sydneyCustomerInEast.get("/api/orders/search?size=100").body())).doesNotContainAnyElementsOf(expected.keySet());

        Reply analytics = brokers.client(SYDNEY, "operator", "operator-pw").get("/admin/search/analytics?interval=1h&top=100");
        assertThat(analytics.status()).as(analytics.raw()).isEqualTo(200);
        long catTrades = 0;
        for (JsonNode top : analytics.body().path("topSymbols")) {
            if (top.path("symbol").asString().equals("TMO")) {
                catTrades = top.path("trades").asLong();
            }
        }
        assertThat(catTrades).as("TMO trades in the operator's analytics").isGreaterThanOrEqualTo(3);
    }

    @Test
    void tradingGoesOnWhileARegionsElasticsearchIsDownAndEveryEventIsIndexedOnceItIsBack() {
        // load-5 is at home in us-east-1; ABT (NYSE) is ticked by no other test
        TestSession east = brokers.client(EAST, "load-5", "load-5-pw");
        List<String> orders = new ArrayList<>();
        brokers.stack().stopElasticsearch(EAST);
        try (TickPublisher ticks = brokers.ticks(EAST)) {
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < until) {
                orders.add(placed(east, "LIMIT", "ABT", 1, "130.00"));
                ticks.tick("ABT", "NYSE", "128.00");
                Brokers.sleep(1_000);
            }
            for (String orderId : orders) {
                assertThat(new BigDecimal(east.awaitStatus(orderId, "FILLED", INDEXED).text("fillPrice"))).isEqualByComparingTo("128.00");
            }
        } finally {
            brokers.stack().startElasticsearch(EAST);
        }
        assertThat(orders).hasSizeGreaterThanOrEqualTo(20);

        JsonNode found = Await.until("every order placed while us-east-1's Elasticsearch was down searchable, FILLED", Duration.ofSeconds(120),
                () -> east.get("/api/orders/search?symbol=ABT&size=100").body(),
                body -> orders.stream().allMatch(id -> "FILLED".equals(statuses(body).get(id))));
        assertThat(ids(found)).as("each once").doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(orders);
        assertThat(found.path("regions").path("answered")).extracting(JsonNode::asString).contains(EAST);
    }

    /** Placed, retried with the same clientOrderId while the other region is still answered 503 (its circuit closing after the start). */
    private static String placed(TestSession client, String type, String symbol, long quantity, String price) {
        Map<String, Object> order = Map.of("clientOrderId", "search-" + UUID.randomUUID(), "symbol", symbol, "side", "BUY", "type", type,
                "quantity", quantity, "limitPrice", new BigDecimal(price));
        Reply reply = Await.until("a placement not refused as retry-safe", Duration.ofSeconds(30), () -> client.place(order), r -> r.status() != 503);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(201);
        return reply.text("orderId");
    }

    private static Map<String, String> statuses(JsonNode page) {
        Map<String, String> byId = new HashMap<>();
        for (JsonNode item : page.path("items")) {
            byId.put(item.path("orderId").asString(), item.path("status").asString());
        }
        return byId;
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.path("items").forEach(item -> ids.add(item.path("orderId").asString()));
        return ids;
    }

    /**
     * Findings (#55): the local Elasticsearch took anonymous writes and wildcard deletes. Now every
     * request needs a login (the stack's {@code login} module) and an index is deleted by its name only.
     */
    @Test
    void theLocalElasticsearchAsksEveryoneForALoginAndRefusesWildcardDeletes() throws Exception {
        String base = brokers.stack().elasticsearchUrl("us-east-1");
        String admin = brokers.stack().searchLogins().authorization(SearchLogins.ADMIN);
        String wrong = "Basic " + java.util.Base64.getEncoder().encodeToString("admin:not-the-password".getBytes());

        for (String authorization : new String[] {null, wrong, "Bearer x", "Basic %%%"}) {
            for (String[] request : new String[][] {{"GET", "/"}, {"GET", "/orders-v*/_search"}, {"DELETE", "/orders-v*"},
                    {"PUT", "/anonymous-index"}, {"POST", "/_bulk"}}) {
                java.net.http.HttpResponse<String> answer = send(base, request[0], request[1], authorization);
                assertThat(answer.statusCode()).as(request[0] + " " + request[1] + " as " + authorization + ": " + answer.body()).isEqualTo(401);
                assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(h -> assertThat(h).startsWith("Basic"));
            }
        }
        assertThat(send(base, "GET", "/_cluster/health", admin).statusCode()).isEqualTo(200);
        java.net.http.HttpResponse<String> wildcard = send(base, "DELETE", "/orders-v*", admin);
        assertThat(wildcard.statusCode()).as(wildcard.body()).isEqualTo(400);
        assertThat(wildcard.body()).contains("Wildcard expressions or all indices are not allowed");
    }

    private static java.net.http.HttpResponse<String> send(String base, String method, String path, String authorization) throws Exception {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + path))
                .method(method, method.equals("GET") || method.equals("DELETE") ? java.net.http.HttpRequest.BodyPublishers.noBody()
                        : java.net.http.HttpRequest.BodyPublishers.ofString("{}"))
                .header("Content-Type", "application/json");
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return java.net.http.HttpClient.newHttpClient().send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    }
}
