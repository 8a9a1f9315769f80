package org.brokerapp.loadtest.drill;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import org.brokerapp.infra.servers.CassandraDisk;

/**
 * A failure rehearsed under load: what fails, where, when in the measured window and for how long.
 *
 * @param at     how far into the measured window the fault starts
 * @param length how long the fault lasts: the WAN cut, the time a killed server stays down before it is started again,
 *               or the time a full disk stays full
 */
public record Drill(Kind kind, String region, Duration at, Duration length) {

    /** How far the clock-skew drill steps a broker's clock: the 2 s, well inside every tolerance the brokers check. */
    public static final Duration CLOCK_STEP = Duration.ofSeconds(2);

    /** The faults a drill can inject into the local stack. */
    public enum Kind {
        /** The region's broker is killed with SIGKILL (no graceful stop), then started again. */
        BROKER_KILL("broker-kill", Duration.ZERO),
        /** The region's Kafka broker (its only one) is killed with SIGKILL, then started again on its data. */
        KAFKA_KILL("kafka-kill", Duration.ZERO),
        /** One Cassandra node of the region's DC (not a seed) is killed with SIGKILL, then started again on its data. */
        CASSANDRA_KILL("cassandra-kill", Duration.ZERO),
        /** The data disk of that Cassandra node fills up; after the drill's length it is freed and the node restarted. */
        DISK_FULL("disk-full", Duration.ofSeconds(30)),
        /** The commit log disk of that Cassandra node fills up; after the drill's length it is freed and the node restarted. */
        COMMITLOG_FULL("commitlog-full", Duration.ofSeconds(30)),
        /** Every WAN link of the region is cut (the emulator drops its traffic), then healed. */
        REGION_CUT("region-cut", Duration.ofSeconds(60)),
        /** The region's broker clock steps {@link #CLOCK_STEP} ahead of every other clock, and stays ahead until the run ends. */
        CLOCK_SKEW("clock-skew", Duration.ZERO);

        private final String key;
        private final Duration defaultLength;

        Kind(String key, Duration defaultLength) {
            this.key = key;
            this.defaultLength = defaultLength;
        }

        public String key() {
            return key;
        }

        public Duration defaultLength() {
            return defaultLength;
        }

        public static Optional<Kind> named(String key) {
            return Arrays.stream(values()).filter(k -> k.key.equals(key.trim().toLowerCase(Locale.ROOT))).findFirst();
        }

        public static String keys() {
            return String.join(", ", Arrays.stream(values()).map(Kind::key).toList());
        }
    }

    public String describe() {
        return switch (kind) {
            case BROKER_KILL -> "kill -9 of the " + region + " broker " + seconds(at) + " into the window, started again "
                    + (length.isZero() ? "at once" : "after " + seconds(length));
            case KAFKA_KILL -> "kill -9 of the " + region + " Kafka " + seconds(at) + " into the window, started again "
                    + (length.isZero() ? "at once" : "after " + seconds(length));
            case CASSANDRA_KILL -> "kill -9 of a " + region + " Cassandra node " + seconds(at) + " into the window, started again "
                    + (length.isZero() ? "at once" : "after " + seconds(length));
            case DISK_FULL, COMMITLOG_FULL -> "the " + filledDisk().orElseThrow().description() + " of a " + region + " Cassandra node filled "
                    + seconds(at) + " into the window, freed " + seconds(length) + " later and the node restarted";
            case REGION_CUT -> "WAN cut of " + region + " for " + seconds(length) + ", " + seconds(at) + " into the window";
            case CLOCK_SKEW -> "the " + region + " broker's clock stepped " + seconds(CLOCK_STEP) + " ahead " + seconds(at)
                    + " into the window, and left there";
        };
    }

    /** Which disk of the region's drilled Cassandra node this drill fills, if it fills one. */
    public Optional<CassandraDisk> filledDisk() {
        return switch (kind) {
            case DISK_FULL -> Optional.of(CassandraDisk.DATA);
            case COMMITLOG_FULL -> Optional.of(CassandraDisk.COMMIT_LOG);
            default -> Optional.empty();
        };
    }

    /** A duration as the drills report it: seconds with one decimal. */
    public static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}
