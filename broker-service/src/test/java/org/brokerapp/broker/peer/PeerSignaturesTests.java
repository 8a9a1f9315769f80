package org.brokerapp.broker.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Internal calls between brokers are signed per region. The finding: the shared router secret,
 * {@code customerId: alice} and {@code placedRegion: "x"} filled a MARKET order on alice's account;
 * now a call verifies only with the calling region's key, over this exact call.
 */
class PeerSignaturesTests {

    private static final String EAST_PRIVATE = "MC4CAQAwBQYDK2VwBCIEIGeXCW1PXeO8Wm1PXny1X7SWfQDR4U+kG5MaS/a133nB";
    private static final String SYDNEY_PRIVATE = "MC4CAQAwBQYDK2VwBCIEICktj06Bl1H8HY6xw1Sr3d5xao/og4qntkUL29PPoPUO";
    private static final Map<String, String> PUBLIC = Map.of(
            "us-east-1", "MCowBQYDK2VwAyEAIjj18XXNo6zyMAYdAeEVgzzXdi/uTivnrGAuG+oxpRg=",
            "ap-southeast-2", "MCowBQYDK2VwAyEA9b9JcRGzCouPpyDXC5zZOpOIJlyXOPC/xV7kdN93q/g=");
    private static final Instant NOW = Instant.parse("2026-11-22T15:00:00Z");
    private static final URI URI_ = URI.create("http://127.0.1.3:8080/internal/market-orders");
    private static final byte[] BODY = "{\"customerId\":\"alice\",\"placedRegion\":\"ap-southeast-2\"}".getBytes(StandardCharsets.UTF_8);

    private final PeerSigner sydney = new PeerSigner("ap-southeast-2", SYDNEY_PRIVATE, Clock.fixed(NOW, ZoneOffset.UTC));
    private final PeerVerifier east = new PeerVerifier("us-east-1", PUBLIC, Duration.ofSeconds(30), Clock.fixed(NOW.plusSeconds(1), ZoneOffset.UTC));

    @Test
    void aCallSignedByAnotherRegionVerifiesAsThatRegionAndCustomer() throws Exception {
        Map<String, String> signed = sydney.headers(URI_, "us-east-1", BODY, "alice");

        assertThat(east.verify("POST", "/internal/market-orders", header(signed), BODY)).isEqualTo(new PeerCall("ap-southeast-2", "alice"));
    }

    @Test
    void aChangedBodyCustomerPathOrRegionNoLongerVerifies() {
        Map<String, String> signed = sydney.headers(URI_, "us-east-1", BODY, "alice");
        byte[] bob = new String(BODY, StandardCharsets.UTF_8).replace("alice", "bob").getBytes(StandardCharsets.UTF_8);

        assertRefused(() -> east.verify("POST", "/internal/market-orders", header(signed), bob), "signature");
        assertRefused(() -> east.verify("POST", "/internal/other", header(signed), BODY), "signature");
        assertRefused(() -> east.verify("POST", "/internal/market-orders", name -> name.equals(PeerSignature.CUSTOMER) ? "bob" : header(signed).apply(name),
                BODY), "signature");
        assertRefused(() -> east.verify("POST", "/internal/market-orders", name -> name.equals(PeerSignature.REGION) ? "x" : header(signed).apply(name),
                BODY), "no region's broker");
    }

    /** Finding (#55): a signed call could be sent again, or to another region; now it is good once, and only where it was sent. */
    @Test
    void aSignedCallIsGoodOnceAndOnlyInTheRegionItWasMadeFor() throws Exception {
        Map<String, String> signed = sydney.headers(URI_, "us-east-1", BODY, "alice");
        east.verify("POST", "/internal/market-orders", header(signed), BODY);

        assertRefused(() -> east.verify("POST", "/internal/market-orders", header(signed), BODY), "taken before");
        Map<String, String> forSydney = sydney.headers(URI_, "ap-southeast-2", BODY, "alice");
        assertRefused(() -> east.verify("POST", "/internal/market-orders", header(forSydney), BODY), "signature");
    }

    /** Finding (#55): answers between brokers were unsigned, and the home booked an answer's fill as given. */
    @Test
    void anAnswerIsTheAnsweringRegionsToThatCallOnly() {
        PeerSigner eastSigner = new PeerSigner("us-east-1", EAST_PRIVATE, Clock.fixed(NOW, ZoneOffset.UTC));
        PeerVerifier sydneyVerifier = new PeerVerifier("ap-southeast-2", PUBLIC, Duration.ofSeconds(30), Clock.fixed(NOW, ZoneOffset.UTC));
        String signature = eastSigner.signAnswer("nonce-1", 201, BODY);

        assertThat(sydneyVerifier.answeredBy("us-east-1", "nonce-1", 201, BODY, signature)).isTrue();
        assertThat(sydneyVerifier.answeredBy("us-east-1", "nonce-2", 201, BODY, signature)).as("another call's answer").isFalse();
        assertThat(sydneyVerifier.answeredBy("us-east-1", "nonce-1", 422, BODY, signature)).as("another status").isFalse();
        assertThat(sydneyVerifier.answeredBy("us-east-1", "nonce-1", 201, "{}".getBytes(StandardCharsets.UTF_8), signature)).isFalse();
        assertThat(sydneyVerifier.answeredBy("ap-southeast-2", "nonce-1", 201, BODY, sydney.signAnswer("nonce-1", 201, BODY))).isTrue();
        assertThat(sydneyVerifier.answeredBy("us-east-1", "nonce-1", 201, BODY, sydney.signAnswer("nonce-1", 201, BODY)))
                .as("Sydney's key answering for us-east-1").isFalse();
        assertThat(sydneyVerifier.answeredBy("us-east-1", "nonce-1", 201, BODY, null)).as("unsigned").isFalse();
    }

    @Test
    void anotherRegionsKeyDoesNotSpeakForSydney() {
        PeerSigner eastPretendingToBeSydney = new PeerSigner("ap-southeast-2", EAST_PRIVATE, Clock.fixed(NOW, ZoneOffset.UTC));
        Map<String, String> signed = eastPretendingToBeSydney.headers(URI_, "us-east-1", BODY, "alice");

        assertRefused(() -> east.verify("POST", "/internal/market-orders", header(signed), BODY), "not ap-southeast-2's");
    }

    @Test
    void anUnsignedCallIsRefused() {
        assertRefused(() -> east.verify("POST", "/internal/market-orders", name -> name.equals("Authorization") ? "Basic cm91dGVyOmxvY2Fs" : null, BODY),
                "must be signed");
    }

    @Test
    void aCallSignedByAnotherInstanceOfThisRegionVerifiesAsThisRegion() throws Exception {
        // a placement passed on between two instances of one region: what it may do is the receiver's decision
        PeerSigner self = new PeerSigner("us-east-1", EAST_PRIVATE, Clock.fixed(NOW, ZoneOffset.UTC));
        Map<String, String> signed = self.headers(URI_, "us-east-1", BODY, "alice");

        assertThat(east.verify("POST", "/internal/market-orders", header(signed), BODY)).isEqualTo(new PeerCall("us-east-1", "alice"));
    }

    @Test
    void aCallSignedTooLongAgoIsRefused() {
        PeerVerifier later = new PeerVerifier("us-east-1", PUBLIC, Duration.ofSeconds(30), Clock.fixed(NOW.plusSeconds(31), ZoneOffset.UTC));
        Map<String, String> signed = sydney.headers(URI_, "us-east-1", BODY, "alice");

        assertRefused(() -> later.verify("POST", "/internal/market-orders", header(signed), BODY), "more than 30 s");
    }

    private interface Verification {
        PeerCall run() throws PeerVerifier.Refused;
    }

    private static void assertRefused(Verification verification, String reason) {
        assertThatThrownBy(verification::run).isInstanceOf(PeerVerifier.Refused.class).hasMessageContaining(reason);
    }

    private static java.util.function.Function<String, String> header(Map<String, String> signed) {
        return signed::get;
    }
}
