package org.brokerapp.ticker.publish;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * What Kafka made of the sends: acknowledged ticks per partition, failures by kind (the
 * exception's class) with the first message of each. The producer's I/O thread writes, the
 * progress reporter reads.
 */
final class DeliveryStats implements Callback {

    private final LongAdder acked = new LongAdder();
    private final AtomicLongArray perPartition;
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final Map<String, String> firstMessages = new ConcurrentHashMap<>();
    private volatile long lastAckNanos;

    DeliveryStats(int partitions) {
        perPartition = new AtomicLongArray(partitions);
    }

    @Override
    public void onCompletion(RecordMetadata metadata, Exception exception) {
        if (exception != null) {
            failed(exception);
            return;
        }
        acked.increment();
        // a partition added to the topic while the feed runs has no slot; the spread then ignores it
        if (metadata.partition() >= 0 && metadata.partition() < perPartition.length()) {
            perPartition.incrementAndGet(metadata.partition());
        }
        lastAckNanos = System.nanoTime();
    }

    void failed(Exception exception) {
        String kind = exception.getClass().getSimpleName();
        errors.computeIfAbsent(kind, k -> new LongAdder()).increment();
        firstMessages.putIfAbsent(kind, ErrorMessages.root(exception));
    }

    long acked() {
        return acked.sum();
    }

    long errors() {
        return errors.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** Failures by kind, e.g. {@code TimeoutException -> 12}. */
    Map<String, Long> errorsByKind() {
        Map<String, Long> byKind = new TreeMap<>();
        errors.forEach((kind, count) -> byKind.put(kind, count.sum()));
        return byKind;
    }

    String firstMessage(String kind) {
        return firstMessages.getOrDefault(kind, "");
    }

    /** When the latest acknowledgement arrived (System.nanoTime), 0 before the first. */
    long lastAckNanos() {
        return lastAckNanos;
    }

    PartitionSpread spread() {
        long[] counts = new long[perPartition.length()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = perPartition.get(i);
        }
        return PartitionSpread.of(counts);
    }
}
