package org.brokerapp.broker.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.peer.PeerSigner;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.SignedCalls;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue #12's routing finding against the real brokers: the router credential with
 * {@code customerId: alice} and {@code placedRegion: "x"} filled a MARKET order on alice's account.
 * Now only a call signed by a region's key reaches {@code /internal/**}, and it trades only for the
 * customer and region it was signed for.
 */
@BrokersTest
class RoutedOrderTrustIT {

    private static final String HOME = "us-east-1";
    private static final String AWAY = "ap-southeast-2";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Brokers brokers;
    private final URI internal;

    RoutedOrderTrustIT(Brokers brokers) {
        this.brokers = brokers;
        this.internal = URI.create(brokers.client(HOME, null, null).base() + OrderRouter.MARKET_ORDERS);
    }

    @Test
    void theOldRouterCredentialAloneIsRefused() throws Exception {
        HttpResponse<String> answer = HTTP.send(java.net.http.HttpRequest.newBuilder(internal)
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("router:local-routing-secret".getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(order("alice", "x"))).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).isEqualTo(401);
        assertThat(answer.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
    }

    @Test
    void aSignedCallTradesOnlyForTheCustomerAndRegionItWasSignedFor() throws Exception {
        PeerSigner sydney = brokers.bean(AWAY, PeerSigner.class);

        assertThat(send(sydney, order("alice", "x"), "alice").statusCode()).as("not signed by alice's home region").isEqualTo(403);
        assertThat(send(sydney, order("alice", AWAY), "bob").statusCode()).as("customer not the one signed for").isEqualTo(403);
    }

    @Test
    void aForwardedPlacementIsTakenOnlyFromTheRegionItWasPlacedInForTheCustomerSignedFor() throws Exception {
        PeerSigner sydney = brokers.bean(AWAY, PeerSigner.class);
        URI placements = URI.create(brokers.client(HOME, null, null).base() + OrderRouter.PLACEMENTS);

        assertThat(send(sydney, placements, placement("alice", "x"), "alice").statusCode()).as("placedRegion not the signer's").isEqualTo(403);
        assertThat(send(sydney, placements, placement("alice", AWAY), "bob").statusCode()).as("customer not the one signed for").isEqualTo(403);
        URI passedOn = URI.create(placements + "?passedOn=true");
        assertThat(send(sydney, passedOn, placement("alice", AWAY), "alice").statusCode()).as("a hop inside a region signed by another region")
                .isEqualTo(403);
        HttpResponse<String> signed = send(sydney, placements, placement("alice", AWAY), "alice");
        assertThat(signed.statusCode()).as(signed.body()).isEqualTo(201);
    }

    /**
     * Was (#55): a signed call could be sent again, as often as liked, and to any region: whoever saw
     * one placement go by could place it again. Now a signature is good once, and only at the region
     * it names.
     */
    @Test
    void aSignedCallIsGoodOnceAndOnlyAtTheRegionItWasSignedFor() throws Exception {
        PeerSigner sydney = brokers.bean(AWAY, PeerSigner.class);
        URI placements = URI.create(brokers.client(HOME, null, null).base() + OrderRouter.PLACEMENTS);
        java.net.http.HttpRequest call = SignedCalls.post(sydney, placements, HOME, placement("alice", AWAY), "alice");

        HttpResponse<String> first = HTTP.send(call, HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> replayed = HTTP.send(call, HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> elsewhere = HTTP.send(SignedCalls.post(sydney, placements, AWAY, placement("alice", AWAY), "alice"),
                HttpResponse.BodyHandlers.ofString());

        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        assertThat(replayed.statusCode()).as("the same signed call again: " + replayed.body()).isEqualTo(401);
        assertThat(elsewhere.statusCode()).as("a call signed for another region: " + elsewhere.body()).isEqualTo(401);
    }

    @Test
    void anOrderIsLookedUpOnlyForTheCustomerSignedFor() throws Exception {
        PeerSigner sydney = brokers.bean(AWAY, PeerSigner.class);
        HttpResponse<String> placed = send(sydney, URI.create(brokers.client(HOME, null, null).base() + OrderRouter.PLACEMENTS),
                placement("alice", AWAY), "alice");
        UUID orderId = UUID.fromString(JSON.readTree(placed.body()).path("orderId").asString());
        URI lookups = URI.create(brokers.client(HOME, null, null).base() + OrderRouter.ORDER_LOOKUPS);
        byte[] lookup = JSON.writeValueAsBytes(new OrderLookup("alice", orderId));

        assertThat(send(sydney, lookups, lookup, "bob").statusCode()).as("customer not the one signed for").isEqualTo(403);
        HttpResponse<String> found = send(sydney, lookups, lookup, "alice");
        assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
        assertThat(JSON.readTree(found.body()).path("customerId").asString()).isEqualTo("alice");
        assertThat(send(sydney, lookups, JSON.writeValueAsBytes(new OrderLookup("alice", UUID.randomUUID())), "alice").statusCode())
                .as("an order nobody placed").isEqualTo(404);
    }

    private HttpResponse<String> send(PeerSigner signer, URI uri, byte[] body, String signedCustomer) throws Exception {
        return HTTP.send(SignedCalls.post(signer, uri, HOME, body, signedCustomer), HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] placement(String customer, String placedRegion) {
        return JSON.writeValueAsBytes(new RoutedPlacement(customer, "trust-" + UUID.randomUUID(), "IBM", Side.BUY, OrderType.LIMIT, 1,
                new java.math.BigDecimal("1.00"), placedRegion, null, null, null));
    }

    private HttpResponse<String> send(PeerSigner signer, byte[] body, String signedCustomer) throws Exception {
        return send(signer, internal, body, signedCustomer);
    }

    private static byte[] order(String customer, String placedRegion) {
        return JSON.writeValueAsBytes(new RoutedMarketOrder(customer, "trust-" + UUID.randomUUID(), "IBM", Side.BUY, 1, placedRegion, null, false));
    }
}
