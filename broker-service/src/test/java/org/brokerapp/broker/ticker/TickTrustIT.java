package org.brokerapp.broker.ticker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.broker.support.TickTrustSymbols;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.ticker.Topics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The tick findings of issue #12 replayed against the real brokers: a forged tick on the region's
 * {@code ticks} topic moves no price and fills no order; what is refused lands on
 * {@code ticks.dead-letter} with its reason and is counted by kind.
 */
@BrokersTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TickTrustIT {

    private static final String HOME = "us-east-1";
    private static final Duration SEEN = Duration.ofSeconds(20);

    private final Brokers brokers;
    private final TestSession alice;
    private final TickPublisher ticks;

    TickTrustIT(Brokers brokers) {
        this.brokers = brokers;
        this.alice = brokers.client(HOME, "alice", "alice-pw");
        this.ticks = brokers.ticks(HOME);
    }

    @AfterAll
    void close() {
        ticks.close();
    }

    /** Was: price 0.0001 at seq 9,000,000,000 let a MARKET BUY take 1e9 shares for $100,000, and froze the price. */
    @Test
    void aForgedPriceWithAHugeSequenceIsRefusedAndTheRealFeedGoesOn() {
        String symbol = TickTrustSymbols.FORGED;
        ticks.tick(symbol, "NASDAQ", "110.00");
        alice.awaitPrice(symbol, "110.00", SEEN);

        ticks.forged(symbol, "NASDAQ", "0.0001", 9_000_000_000L);
        ticks.tick(symbol, "NASDAQ", "110.05");

        alice.awaitPrice(symbol, "110.05", SEEN);
        Reply market = alice.place(Map.of("clientOrderId", UUID.randomUUID().toString(), "symbol", symbol, "side", "BUY", "type", "MARKET",
                "quantity", 10));
        assertThat(market.status()).as(market.raw()).isEqualTo(201);
        assertThat(market.text("fillPrice")).isEqualTo("110.05");
        assertThat(refused("sequence.jump")).isPositive();
    }

    /** Was: "IBM on ASX at 1.00" filled a resting NYSE BUY LIMIT at 1.00. */
    @Test
    void aTickNamingTheWrongExchangeFillsNothing() {
        String symbol = TickTrustSymbols.WRONG_EXCHANGE;
        ticks.tick(symbol, "NYSE", "320.00");
        alice.awaitPrice(symbol, "320.00", SEEN);
        Reply limit = alice.place(Map.of("clientOrderId", UUID.randomUUID().toString(), "symbol", symbol, "side", "BUY", "type", "LIMIT",
                "quantity", 1, "limitPrice", "1.00"));
        assertThat(limit.status()).as(limit.raw()).isEqualTo(201);

        ticks.forged(symbol, "ASX", "1.00", 2);
        ticks.tick(symbol, "NYSE", "320.10");
        alice.awaitPrice(symbol, "320.10", SEEN);

        assertThat(alice.get("/api/orders/" + limit.text("orderId")).text("status")).isEqualTo("OPEN");
        assertThat(alice.delete("/api/orders/" + limit.text("orderId")).status()).isIn(200, 202);
        assertThat(refused("wrong.exchange")).isPositive();
    }

    @Test
    void aPriceOutsideTheSymbolsBandIsRefused() {
        String symbol = TickTrustSymbols.BAND;
        ticks.tick(symbol, "NASDAQ", "350.00");
        alice.awaitPrice(symbol, "350.00", SEEN);

        ticks.tick(symbol, "NASDAQ", "390.00");
        ticks.tick(symbol, "NASDAQ", "384.00");

        alice.awaitPrice(symbol, "384.00", SEEN);
        assertThat(refused("band")).isPositive();
    }

    /**
     * Was (#55): a symbol at 100, a resting BUY LIMIT at 95, then 10,050 ticks at 120, then ticks at
     * 94: the band refused the 120s without moving the sequence, so the 94s were a "sequence jump"
     * and the order never filled.
     */
    @Test
    void aRealGapRefusedByTheBandDoesNotFreezeTheSymbol() {
        String symbol = TickTrustSymbols.GAP;
        ticks.tick(symbol, "NYSE", "100.00");
        alice.awaitPrice(symbol, "100.00", SEEN);
        Reply limit = alice.place(Map.of("clientOrderId", UUID.randomUUID().toString(), "symbol", symbol, "side", "BUY", "type", "LIMIT",
                "quantity", 1, "limitPrice", "95.00"));
        assertThat(limit.status()).as(limit.raw()).isEqualTo(201);
        double jumps = refused("sequence.jump");

        ticks.burst(symbol, "NYSE", "120.00", 10_050);

        alice.awaitFilledTicking(limit.text("orderId"), () -> ticks.tick(symbol, "NYSE", "94.00"), Duration.ofSeconds(60));
        assertThat(refused("sequence.jump")).isEqualTo(jumps);
    }

    /** Was (#55): 130 ticks, each 9 % below the last, took a price to almost nothing, and the real feed's ticks were refused after. */
    @Test
    void aWalkOfSmallStepsMovesThePriceAtMostOneBandAndTheRealFeedGoesOn() {
        String symbol = TickTrustSymbols.WALK;
        ticks.tick(symbol, "NYSE", "480.45");
        alice.awaitPrice(symbol, "480.45", SEEN);

        java.math.BigDecimal price = new java.math.BigDecimal("480.45");
        for (int step = 0; step < 130; step++) {
            price = price.multiply(new java.math.BigDecimal("0.91")).setScale(4, java.math.RoundingMode.DOWN).max(new java.math.BigDecimal("0.0001"));
            ticks.tick(symbol, "NYSE", price.toPlainString());
        }
        ticks.tick(symbol, "NYSE", "480.50");

        alice.awaitPrice(symbol, "480.50", SEEN);
    }

    /**
     * Was (#55): a tick numbered 1 reset the symbol's sequence unchecked, so a forger's {@code seq 1}
     * set the price (and filled what it crossed). Now, while the feed's run goes on, it is refused.
     */
    @Test
    void aForgedFirstTickWhileTheFeedRunsIsRefusedAndTheRealFeedGoesOn() {
        String symbol = TickTrustSymbols.RESTART;
        ticks.tick(symbol, "NYSE", "165.00");
        ticks.tick(symbol, "NYSE", "165.10");
        alice.awaitPrice(symbol, "165.10", SEEN);
        Reply limit = alice.place(Map.of("clientOrderId", UUID.randomUUID().toString(), "symbol", symbol, "side", "BUY", "type", "LIMIT",
                "quantity", 1, "limitPrice", "150.00"));
        assertThat(limit.status()).as(limit.raw()).isEqualTo(201);
        double restarts = refused("sequence.restart");

        // the feed's run is live (a tick this instant), so a new run cannot be starting
        ticks.tick(symbol, "NYSE", "165.15");
        ticks.forged(symbol, "NYSE", "149.00", 1);
        ticks.tick(symbol, "NYSE", "165.20");

        alice.awaitPrice(symbol, "165.20", SEEN);
        assertThat(alice.get("/api/orders/" + limit.text("orderId")).text("status")).as("the forged tick crossed it").isEqualTo("OPEN");
        assertThat(refused("sequence.restart")).isGreaterThan(restarts);
        assertThat(alice.delete("/api/orders/" + limit.text("orderId")).status()).isIn(200, 202);
    }

    /** Was: a 5-decimal price passed the tick format, set the last price, then failed in the matcher. */
    @Test
    void refusedAndMalformedTicksLandOnTheDeadLetterTopicWithTheirReason() {
        ticks.raw(TickTrustSymbols.FORGED, ("{\"v\":1,\"symbol\":\"" + TickTrustSymbols.FORGED
                + "\",\"exchange\":\"NASDAQ\",\"price\":\"110.00001\",\"size\":1,\"seq\":3,\"ts\":" + System.currentTimeMillis() * 1000 + "}")
                .getBytes(StandardCharsets.UTF_8));
        ticks.forged(TickTrustSymbols.WRONG_EXCHANGE, "ASX", "1.00", 5);

        List<String> kinds = new ArrayList<>();
        long deadline = System.nanoTime() + SEEN.toNanos();
        Map<String, Object> config = brokers.stack().kafkaClientConfig(HOME, KafkaAccess.ADMIN);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "tick-trust-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, byte[]> deadLetters = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            deadLetters.subscribe(List.of(Topics.TICKS_DEAD_LETTER));
            while (System.nanoTime() < deadline && !(kinds.contains("malformed") && kinds.contains("wrong.exchange"))) {
                for (ConsumerRecord<String, byte[]> record : deadLetters.poll(Duration.ofMillis(500))) {
                    String kind = header(record, "refused-kind");
                    kinds.add(kind);
                    assertThat(header(record, "refused-reason")).isNotBlank();
                    assertThat(header(record, "source")).startsWith("ticks-");
                    assertThat(header(record, "region")).isEqualTo(HOME);
                }
            }
        }
        assertThat(kinds).contains("malformed", "wrong.exchange");
        assertThat(alice.get("/api/prices/" + TickTrustSymbols.FORGED).text("price")).isNotEqualTo("110.00001");
    }

    private static String header(ConsumerRecord<String, byte[]> record, String key) {
        Header header = record.headers().lastHeader(key);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private double refused(String kind) {
        String metrics = brokers.operator(HOME).get("/actuator/prometheus").raw();
        Matcher m = Pattern.compile("broker_ticks_refused_total\\{[^}]*kind=\"" + Pattern.quote(kind) + "\"[^}]*} (\\S+)").matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
