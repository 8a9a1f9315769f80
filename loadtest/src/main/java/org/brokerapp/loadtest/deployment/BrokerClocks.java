package org.brokerapp.loadtest.deployment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The brokers' wall clocks, which the clock-skew drill steps (docs/RELIABILITY.md). A broker whose
 * clock may be stepped runs under libfaketime (Debian's {@code faketime} package): it adds the
 * offset written in a file of the broker's own to every wall-clock read of the JVM, and reads that
 * file again at most once a second, so a step reaches the running broker without a restart, as an
 * NTP step reaches a host. Every other broker's clock and the servers' are left alone.
 *
 * <p>libfaketime moves the JVM's monotonic clock ({@code System.nanoTime}) by the same offset. Left
 * alone, the JVM's timed waits (condition variables on the monotonic clock) return at once under
 * libfaketime and every waiting thread spins: measured, an idle JVM took 17.8 s of CPU in 8 s
 * instead of 0.17 s. So the clock is only ever stepped forward: the JVM sees a forward jump of
 * its monotonic clock as a 2 s pause. A step back would move the monotonic clock backwards, which
 * no real host does.
 */
public final class BrokerClocks {

    /** Where Debian puts the library, per architecture. */
    static final List<Path> LIBRARY = List.of(
            Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1"));

    private final Path library;
    private final Path dir;
    private final Set<String> steppable;

    private BrokerClocks(Path library, Path dir, Set<String> steppable) {
        this.library = library;
        this.dir = dir;
        this.steppable = steppable;
    }

    /** Every broker on the host's clock, none steppable. */
    public static BrokerClocks hosts() {
        return new BrokerClocks(null, null, Set.of());
    }

    /** The brokers of {@code regions} on clocks a drill may step, their offset files in {@code dir}. */
    public static BrokerClocks steppable(Set<String> regions, Path dir) {
        return steppable(regions, dir, LIBRARY);
    }

    static BrokerClocks steppable(Set<String> regions, Path dir, List<Path> libraries) {
        Path library = installed(libraries).orElseThrow(() -> new IllegalStateException(
                "stepping a broker's clock needs libfaketime, which is not installed (apt-get install faketime)"));
        return new BrokerClocks(library, dir, Set.copyOf(regions));
    }

    static Optional<Path> installed(List<Path> candidates) {
        return candidates.stream().filter(Files::isReadable).findFirst();
    }

    /** Makes the region's broker, if its clock is steppable, start on it at offset zero. */
    void prepare(String region, ProcessBuilder launcher) {
        if (!steppable.contains(region)) {
            return;
        }
        Path file = offsetFile(region);
        write(file, Duration.ZERO);
        Map<String, String> env = launcher.environment();
        env.put("LD_PRELOAD", library.toString());
        env.put("FAKETIME_TIMESTAMP_FILE", file.toString());
        env.put("FAKETIME_CACHE_DURATION", "1");
    }

    /** Steps the region's broker clock forward to {@code offset} from the host's; it sees the step within a second. */
    public void step(String region, Duration offset) {
        if (!steppable.contains(region)) {
            throw new IllegalStateException("the " + region + " broker was not started on a steppable clock");
        }
        if (offset.isNegative()) {
            throw new IllegalArgumentException("a broker's clock is only stepped forward (see the class comment), not " + offset);
        }
        write(offsetFile(region), offset);
    }

    /** libfaketime's relative form: a sign and seconds, e.g. {@code +2.000}. */
    static String offset(Duration offset) {
        long millis = offset.toMillis();
        return String.format(Locale.ROOT, "%s%d.%03d", millis < 0 ? "-" : "+", Math.abs(millis) / 1000, Math.abs(millis) % 1000);
    }

    private Path offsetFile(String region) {
        return dir.resolve("clock-" + region + ".offset");
    }

    private static void write(Path file, Duration offset) {
        try {
            Files.createDirectories(file.getParent());
            Path next = file.resolveSibling(file.getFileName() + ".next");
            Files.writeString(next, offset(offset) + "\n");
            // a rename, so the broker never reads a half-written offset
            Files.move(next, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the clock offset " + file, e);
        }
    }
}
