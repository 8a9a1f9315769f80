package org.brokerapp.ticker.publish;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import org.HdrHistogram.Histogram;
import org.apache.kafka.common.KafkaException;
import org.brokerapp.ticker.TickProducer;
import org.brokerapp.ticker.pacing.NanoClock;
import org.brokerapp.ticker.pacing.Pacer;
import org.brokerapp.ticker.pacing.PacingStats;
import org.brokerapp.ticker.pacing.ScheduledTick;

/**
 * One region's feed: makes sure the topic exists and reports how the keys spread over its
 * partitions, then sends the ticks of its source on time into the region's Kafka, and finally
 * reports what happened. {@link #progress()} may be called from another thread while it runs.
 */
public final class RegionFeed {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final String region;
    private final KafkaSettings kafka;
    private final Collection<String> keys;
    private final String plan;
    private final Function<Instant, Iterator<ScheduledTick>> source;
    private final PrintStream out;
    private final PacingStats pacing = new PacingStats();
    private TopicSetup.Topic topic;
    private DeliveryStats delivery;
    private TickProducer producer;
    private long progressSent;
    private long progressNanos;
    private boolean progressed;

    /**
     * @param keys   the symbols it may publish, for the partition spread report
     * @param plan   what it publishes, for people, e.g. {@code simulated ticks of 565 symbols at 1,000/s}
     * @param source the ticks, given the wall-clock time of the start
     */
    public RegionFeed(String region, KafkaSettings kafka, Collection<String> keys, String plan,
                      Function<Instant, Iterator<ScheduledTick>> source, PrintStream out) {
        this.region = region;
        this.kafka = kafka;
        this.keys = List.copyOf(keys);
        this.plan = plan;
        this.source = source;
        this.out = out;
    }

    public String region() {
        return region;
    }

    /** Everything before the first tick: topic, key spread report, producer and its metadata. */
    public void prepare() {
        say(plan + " to topic " + kafka.topic() + " on " + kafka.bootstrapServers());
        topic = TopicSetup.ensure(kafka, "ticker-feed-admin-" + region);
        say("topic " + topic.name() + (topic.created() ? ": created with " : ": exists with ") + topic.partitions()
                + " partitions, replication factor " + topic.replicationFactor());
        if (!topic.created() && topic.partitions() != kafka.partitions()) {
            say("WARNING: the topic has " + topic.partitions() + " partitions, not the configured " + kafka.partitions()
                    + "; the feed never changes an existing topic");
        }
        PartitionSpread spread = PartitionSpread.ofKeys(keys, topic.partitions());
        say(String.format(Locale.ROOT, "keys per partition (%,d symbols over %d partitions): %s", keys.size(), topic.partitions(), spread.describe()));
        String warning = spread.keyWarning();
        if (!warning.isEmpty()) {
            say("WARNING: " + warning);
        }
        delivery = new DeliveryStats(topic.partitions());
        try {
            producer = new TickProducer(kafka.producer("ticker-feed-" + region), kafka.topic());
            // fetch metadata now, so the first send does not wait for it on the clock
            producer.partitions();
        } catch (KafkaException e) {
            abort();
            throw new FeedException("cannot produce to " + kafka.topic() + " on Kafka at " + kafka.bootstrapServers()
                    + ": " + ErrorMessages.root(e), e);
        }
    }

    /** Sends every tick of the source (until {@code stop}), waits for the acknowledgements, reports. */
    public Outcome run(BooleanSupplier stop) {
        Iterator<ScheduledTick> ticks = null;
        try {
            ticks = source.apply(Instant.now().truncatedTo(ChronoUnit.MICROS));
            new Pacer(NanoClock.SYSTEM, stop).run(ticks, new KafkaTickSink(producer, delivery), pacing);
        } finally {
            if (ticks instanceof AutoCloseable closeable) {
                closeQuietly(closeable);
            }
            producer.close(CLOSE_TIMEOUT);
        }
        boolean stoppedEarly = stop.getAsBoolean();
        report(stoppedEarly);
        return new Outcome(region, pacing.sent(), delivery.acked(), delivery.errors(), stoppedEarly);
    }

    /** Releases the producer of a feed that was prepared but will not run. */
    public void abort() {
        if (producer != null) {
            producer.close(Duration.ZERO);
        }
    }

    /** One line on how the run goes, or empty before it starts and after it ends. */
    public String progress() {
        if (!pacing.isRunning()) {
            return "";
        }
        long start = pacing.startNanos();
        long now = System.nanoTime();
        long sent = pacing.sent();
        long since = progressed ? progressNanos : start;
        double rate = (sent - progressSent) * 1e9 / Math.max(1, now - since);
        progressSent = sent;
        progressNanos = now;
        progressed = true;
        Histogram lag = pacing.takeIntervalLag();
        return prefix() + String.format(Locale.ROOT, "%6.1f s  sent %,d (%,.0f/s)  acked %,d  lag now %s, p99 %s, max %s  errors %,d",
                (now - start) / 1e9, sent, rate, delivery.acked(), millis(pacing.lastLagNanos()),
                millis(lag.getValueAtPercentile(99)), millis(lag.getMaxValue()), delivery.errors());
    }

    private void report(boolean stoppedEarly) {
        Histogram lag = pacing.totalLag();
        long sent = pacing.sent();
        long acked = delivery.acked();
        long start = pacing.startNanos();
        // nanoTime values compare by their difference only
        long end = acked > 0 && delivery.lastAckNanos() - pacing.endNanos() > 0 ? delivery.lastAckNanos() : pacing.endNanos();
        double elapsed = (end - start) / 1e9;
        say(String.format(Locale.ROOT, "%s: sent %,d ticks in %.2f s; Kafka acknowledged %,d, the last %.2f s after the start",
                stoppedEarly ? "stopped early" : "done", sent, (pacing.endNanos() - start) / 1e9, acked, elapsed));
        if (sent == 0) {
            say("no ticks were sent");
            return;
        }
        double achieved = acked / Math.max(elapsed, 1e-9);
        double intended = pacing.lastIntendedNanos() / 1e9;
        if (sent > 1 && intended > 0) {
            double target = sent / intended;
            say(String.format(Locale.ROOT, "rate: achieved %,.0f ticks/s, target %,.0f ticks/s: %.2f %% of target", achieved, target, 100 * achieved / target));
        } else {
            say(String.format(Locale.ROOT, "rate: achieved %,.0f ticks/s (as fast as possible)", achieved));
        }
        say(String.format(Locale.ROOT, "lag behind schedule: p50 %s, p99 %s, p99.9 %s, max %s; at the end %s",
                millis(lag.getValueAtPercentile(50)), millis(lag.getValueAtPercentile(99)), millis(lag.getValueAtPercentile(99.9)),
                millis(lag.getMaxValue()), millis(pacing.lastLagNanos())));
        if (delivery.errors() == 0) {
            say("errors: none");
        } else {
            StringBuilder kinds = new StringBuilder();
            delivery.errorsByKind().forEach((kind, count) -> kinds.append(String.format(Locale.ROOT, "; %s %,d (first: %s)",
                    kind, count, delivery.firstMessage(kind))));
            say(String.format(Locale.ROOT, "errors: %,d%s", delivery.errors(), kinds));
        }
        long unaccounted = sent - acked - delivery.errors();
        if (unaccounted > 0) {
            say(String.format(Locale.ROOT, "WARNING: %,d ticks neither acknowledged nor failed when the producer closed", unaccounted));
        }
        say(String.format(Locale.ROOT, "ticks per partition (%d partitions): %s", topic.partitions(), delivery.spread().describe()));
    }

    private void say(String line) {
        out.println(prefix() + line);
    }

    private String prefix() {
        return "[" + region + "] ";
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // a replay file that fails to close has been read to the end or abandoned: nothing is lost
        }
    }

    /** How a region's run ended. */
    public record Outcome(String region, long sent, long acked, long errors, boolean stoppedEarly) {

        public long undelivered() {
            return sent - acked;
        }
    }
}
