package org.brokerapp.ticker.publish;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;

import org.apache.kafka.common.utils.Utils;

/**
 * How evenly keys (or records) fall across a topic's partitions, by the producer's own math for
 * keyed records: {@code toPositive(murmur2(key)) % partitions}.
 *
 * <p>Why it matters (the "Kongo" Kafka scaling study): keys decide partitions, partitions decide
 * which consumer gets what. With keys far more numerous than partitions, each partition gets
 * about the same number of keys; with few keys, hashing leaves some partitions crowded and others
 * empty, and consumers beyond the number of partitions sit idle.
 */
public final class PartitionSpread {

    /** Below this many keys per partition, the hash spread is visibly uneven. */
    static final double FEW_KEYS_PER_PARTITION = 10;

    private final long[] counts;

    private PartitionSpread(long[] counts) {
        if (counts.length == 0) {
            throw new IllegalArgumentException("a topic has at least one partition");
        }
        this.counts = counts;
    }

    /** The partition Kafka's producer chooses for a record with this key. */
    public static int partitionOf(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    public static PartitionSpread ofKeys(Collection<String> keys, int partitions) {
        long[] counts = new long[partitions];
        keys.forEach(k -> counts[partitionOf(k, partitions)]++);
        return new PartitionSpread(counts);
    }

    public static PartitionSpread of(long[] counts) {
        return new PartitionSpread(counts.clone());
    }

    public int partitions() {
        return counts.length;
    }

    public long count(int partition) {
        return counts[partition];
    }

    public long total() {
        return Arrays.stream(counts).sum();
    }

    public long min() {
        return Arrays.stream(counts).min().orElseThrow();
    }

    public long max() {
        return Arrays.stream(counts).max().orElseThrow();
    }

    public double mean() {
        return (double) total() / counts.length;
    }

    /** 1.0 is perfectly even; 2.0 means the busiest partition has twice the average. */
    public double maxOverMean() {
        return total() == 0 ? 0 : max() / mean();
    }

    public long emptyPartitions() {
        return Arrays.stream(counts).filter(c -> c == 0).count();
    }

    /** E.g. {@code min 38, max 58, mean 47.1, max/mean 1.23}. */
    public String describe() {
        return String.format(Locale.ROOT, "min %,d, max %,d, mean %,.1f, max/mean %.2f", min(), max(), mean(), maxOverMean());
    }

    /** A warning when keys are too few for the partitions, else empty. */
    public String keyWarning() {
        if (emptyPartitions() > 0) {
            return emptyPartitions() + " of " + counts.length + " partitions get no key: their consumers would idle; use fewer partitions";
        }
        if (mean() < FEW_KEYS_PER_PARTITION) {
            return String.format(Locale.ROOT, "only %.1f keys per partition: expect an uneven spread; keys should far outnumber partitions", mean());
        }
        return "";
    }
}
