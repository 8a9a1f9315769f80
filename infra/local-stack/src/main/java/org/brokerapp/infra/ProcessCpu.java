package org.brokerapp.infra;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * CPU time of processes as the kernel accounts it: {@code utime + stime} from
 * {@code /proc/<pid>/stat}, in clock ticks (10 ms on Linux). Two readings subtracted give what a
 * process burned in between, whatever else the machine was doing; a process that ended in between
 * has no reading. Linux only: elsewhere every reading is empty.
 */
public final class ProcessCpu {

    /** What a process is, for per-kind sums: from its command line, so it also names processes another launcher started. */
    public enum Kind {
        CASSANDRA, KAFKA, BROKER, TOXIPROXY, HARNESS, OTHER;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One process's CPU at one moment. */
    public record Reading(long pid, Kind kind, Duration cpu) {
    }

    private static final long TICKS_PER_SECOND = clockTicksPerSecond();

    private ProcessCpu() {
    }

    /** Total CPU (user + system) the process has used since it started; empty if it is gone or there is no /proc. */
    public static Optional<Duration> cpuTime(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.ISO_8859_1);
            // the command name (field 2) may hold spaces and parentheses: fields count from the last ')'
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" +");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime (14) + stime (15), 1-based from pid
            return Optional.of(Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The kind of process {@code pid} is, from its command line. */
    public static Kind kindOf(long pid) {
        try {
            String cmdline = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.ISO_8859_1).replace('\0', ' ');
            return kindOf(cmdline);
        } catch (IOException | RuntimeException e) {
            return Kind.OTHER;
        }
    }

    static Kind kindOf(String commandLine) {
        if (commandLine.contains("org.apache.cassandra.service.CassandraDaemon")) {
            return Kind.CASSANDRA;
        }
        if (commandLine.contains("kafka.Kafka")) {
            return Kind.KAFKA;
        }
        if (commandLine.contains("toxiproxy")) {
            return Kind.TOXIPROXY;
        }
        if (commandLine.contains("broker-service") || commandLine.contains("--broker.region=")) {
            return Kind.BROKER;
        }
        if (commandLine.contains("org.brokerapp.loadtest")) {
            return Kind.HARNESS;
        }
        return Kind.OTHER;
    }

    /** A reading of each process still alive, by pid. */
    public static Map<Long, Reading> read(Collection<Long> pids, Map<Long, Kind> kinds) {
        Map<Long, Reading> readings = new LinkedHashMap<>();
        for (long pid : pids) {
            cpuTime(pid).ifPresent(cpu -> readings.put(pid, new Reading(pid, kinds.getOrDefault(pid, Kind.OTHER), cpu)));
        }
        return readings;
    }

    /** CPU per kind between two readings of the same processes; a process missing from either is left out. */
    public static Map<Kind, Duration> perKind(Map<Long, Reading> before, Map<Long, Reading> after) {
        Map<Kind, Duration> sums = new LinkedHashMap<>();
        after.forEach((pid, now) -> {
            Reading then = before.get(pid);
            if (then != null) {
                sums.merge(now.kind(), now.cpu().minus(then.cpu()), Duration::plus);
            }
        });
        return sums;
    }

    /** {@code getconf CLK_TCK} (the kernel's USER_HZ), 100 where it cannot be asked. */
    private static long clockTicksPerSecond() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            return p.waitFor() == 0 ? Long.parseLong(out) : 100;
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
