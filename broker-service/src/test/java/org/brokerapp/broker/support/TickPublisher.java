package org.brokerapp.broker.support;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.brokerapp.ticker.Tick;
import org.brokerapp.ticker.TickCodec;
import org.brokerapp.ticker.Topics;

/** Publishes ticks to a region's Kafka the way the ticker feed does: keyed by symbol, numbered per symbol. */
public final class TickPublisher implements AutoCloseable {

    private static final Map<String, AtomicLong> SEQUENCES = new ConcurrentHashMap<>();

    private final KafkaProducer<String, byte[]> producer;

    /** {@code kafka}: where the region's Kafka answers and the feed's login (only the feed may write ticks). */
    TickPublisher(Map<String, Object> kafka) {
        Map<String, Object> config = new java.util.HashMap<>(kafka);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        this.producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    public void tick(String symbol, String exchange, String price) {
        long sequence = SEQUENCES.computeIfAbsent(symbol, s -> new AtomicLong()).incrementAndGet();
        Tick tick = new Tick(symbol, exchange, new BigDecimal(price), 100, sequence, Instant.now());
        send(symbol, TickCodec.encode(tick));
    }

    /** {@code count} ticks at one price, numbered on from the symbol's last, sent together: a liquid stock's minutes in a second. */
    public void burst(String symbol, String exchange, String price, int count) {
        AtomicLong sequences = SEQUENCES.computeIfAbsent(symbol, s -> new AtomicLong());
        java.util.List<java.util.concurrent.Future<?>> sent = new java.util.ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Tick tick = new Tick(symbol, exchange, new BigDecimal(price), 100, sequences.incrementAndGet(), Instant.now());
            sent.add(producer.send(new ProducerRecord<>(Topics.TICKS, symbol, TickCodec.encode(tick))));
        }
        try {
            for (java.util.concurrent.Future<?> each : sent) {
                each.get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A tick with the sequence number given, not the next one: what a forger would send. */
    public void forged(String symbol, String exchange, String price, long sequence) {
        send(symbol, TickCodec.encode(new Tick(symbol, exchange, new BigDecimal(price), 100, sequence, Instant.now())));
    }

    public void raw(String symbol, byte[] value) {
        send(symbol, value);
    }

    private void send(String key, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(Topics.TICKS, key, value)).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
