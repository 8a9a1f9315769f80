package org.brokerapp.broker.support;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.brokerapp.ticker.Tick;
import org.brokerapp.ticker.TickProducer;

/** Publishes ticks to a region's Kafka through the feed's own {@link TickProducer}, numbered per symbol as the feed numbers them. */
public final class TickPublisher implements AutoCloseable {

    private static final Map<String, AtomicLong> SEQUENCES = new ConcurrentHashMap<>();

    private final TickProducer producer;

    /** {@code kafka}: where the region's Kafka answers and the feed's login (only the feed may write ticks). */
    TickPublisher(Map<String, Object> kafka) {
        this.producer = TickProducer.sendingEachAtOnce(kafka, "test-ticks");
    }

    public void tick(String symbol, String exchange, String price) {
        long sequence = SEQUENCES.computeIfAbsent(symbol, s -> new AtomicLong()).incrementAndGet();
        await(producer.send(new Tick(symbol, exchange, new BigDecimal(price), 100, sequence, Instant.now())));
    }

    /** {@code count} ticks at one price, numbered on from the symbol's last, sent together: a liquid stock's minutes in a second. */
    public void burst(String symbol, String exchange, String price, int count) {
        AtomicLong sequences = SEQUENCES.computeIfAbsent(symbol, s -> new AtomicLong());
        List<Future<?>> sent = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            sent.add(producer.send(new Tick(symbol, exchange, new BigDecimal(price), 100, sequences.incrementAndGet(), Instant.now())));
        }
        sent.forEach(TickPublisher::await);
    }

    /** A tick with the sequence number given, not the next one: what a forger would send. */
    public void forged(String symbol, String exchange, String price, long sequence) {
        await(producer.send(new Tick(symbol, exchange, new BigDecimal(price), 100, sequence, Instant.now())));
    }

    public void raw(String symbol, byte[] value) {
        await(producer.sendRaw(symbol, value));
    }

    private static void await(Future<?> sent) {
        try {
            sent.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
