package org.brokerapp.infra.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * CPU time of processes as the kernel accounts it: {@code utime + stime} from
 * {@code /proc/<pid>/stat}, in clock ticks (10 ms on Linux). Two readings subtracted give what a
 * process burned in between, whatever else the machine was doing; a process that ended in between
 * has no reading. Linux only: elsewhere every reading is empty.
 *
 * <p>A reading also holds what the JVM's JIT compiler threads ({@code C1 CompilerThread*},
 * {@code C2 CompilerThread*}) burned, from {@code /proc/<pid>/task/<tid>/stat}: in a JVM's first
 * minutes compiling is a large share of its CPU, work done once per start, not per request
 * (issue #11). A compiler thread the JVM retired in between takes its time with it; the stack's
 * JVMs run one compiler thread of each kind ({@code -XX:CICompilerCount=2}), which the JVM never
 * retires.
 *
 * <p>And how long the process's other threads waited for a core: the run-queue wait and the number
 * of times a thread was put on a core, from {@code /proc/<pid>/task/<tid>/schedstat}. On a saturated
 * machine a request's latency is mostly that wait, paid at every hand-over between threads; the
 * compiler threads are left out, as they run at a lower priority here and wait by design.
 */
public final class ProcessCpu {

    /** What a process is, for per-kind sums: from its command line, so it also names processes another launcher started. */
    public enum Kind {
        CASSANDRA, KAFKA, BROKER, TOXIPROXY, HARNESS, OTHER;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Time runnable threads spent waiting for a core, and how many times they were put on one. */
    public record Waits(Duration waited, long dispatches) {

        public static final Waits NONE = new Waits(Duration.ZERO, 0);

        Waits plus(Waits other) {
            return new Waits(waited.plus(other.waited), dispatches + other.dispatches);
        }

        Waits minus(Waits other) {
            return new Waits(waited.minus(other.waited), dispatches - other.dispatches);
        }

        /** The mean wait before a thread got a core; zero when none did. */
        public Duration perDispatch() {
            return dispatches == 0 ? Duration.ZERO : waited.dividedBy(dispatches);
        }
    }

    /** Each thread's waits for a core so far, by thread id. */
    public record ThreadWaits(Map<Long, Waits> byThread) {

        public static final ThreadWaits NONE = new ThreadWaits(Map.of());

        /**
         * The waits since {@code earlier}: a thread started since counts whole; one that ended since
         * not at all, as the kernel keeps nothing of it (pools that retire idle threads undercount).
         */
        public Waits since(ThreadWaits earlier) {
            Waits sum = Waits.NONE;
            for (Map.Entry<Long, Waits> thread : byThread.entrySet()) {
                sum = sum.plus(thread.getValue().minus(earlier.byThread.getOrDefault(thread.getKey(), Waits.NONE)));
            }
            return sum;
        }
    }

    /** One process's CPU at one moment, the part of it its JIT compiler threads burned, and its other threads' waits for a core. */
    public record Reading(long pid, Kind kind, Duration cpu, Duration jit, ThreadWaits waits) {
    }

    /** CPU burned between two readings, the part of it spent JIT-compiling, and the waits for a core in between. */
    public record Usage(Duration cpu, Duration jit, Waits waits) {

        public static final Usage NONE = new Usage(Duration.ZERO, Duration.ZERO, Waits.NONE);

        Usage plus(Usage other) {
            return new Usage(cpu.plus(other.cpu), jit.plus(other.jit), waits.plus(other.waits));
        }

        /** The CPU that was not JIT compiling. */
        public Duration withoutJit() {
            return cpu.minus(jit);
        }
    }

    /** "C1 CompilerThread0" and the like, as the kernel keeps them: 15 characters. */
    private static final Set<String> COMPILER_THREAD_NAMES = Set.of("C1 CompilerThre", "C2 CompilerThre");

    private static final long TICKS_PER_SECOND = clockTicksPerSecond();

    private ProcessCpu() {
    }

    /** Total CPU (user + system) the process has used since it started; empty if it is gone or there is no /proc. */
    public static Optional<Duration> cpuTime(long pid) {
        try {
            return Optional.of(cpuOf(Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.ISO_8859_1)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** CPU the process's JIT compiler threads have used; zero for a process that is not a JVM or is gone. */
    public static Duration jitTime(long pid) {
        return threads(pid).jit();
    }

    /** How long each of the process's threads, its compilers apart, has waited for a core; none for a process that is gone or a kernel without schedstat. */
    public static ThreadWaits waits(long pid) {
        return threads(pid).waits();
    }

    /** What one pass over a process's threads finds: its compilers' CPU, the others' waits. */
    private record Threads(Duration jit, ThreadWaits waits) {
    }

    private static Threads threads(long pid) {
        Duration jit = Duration.ZERO;
        Map<Long, Waits> waits = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"), StandardCharsets.ISO_8859_1);
                    if (COMPILER_THREAD_NAMES.contains(threadName(stat))) {
                        jit = jit.plus(cpuOf(stat));
                    } else {
                        waits.put(Long.parseLong(task.getFileName().toString()),
                                waitsOf(Files.readString(task.resolve("schedstat"), StandardCharsets.ISO_8859_1)));
                    }
                } catch (IOException | RuntimeException threadEnded) {
                    // a thread that ended since the listing (or a kernel without schedstat) has nothing left to count
                }
            }
        } catch (IOException | RuntimeException processEnded) {
            // what was summed before the process ended still counts
        }
        return new Threads(jit, new ThreadWaits(waits));
    }

    /** A {@code schedstat} line: nanoseconds on a core, nanoseconds waiting on a run queue, times put on a core. */
    static Waits waitsOf(String schedstat) {
        String[] fields = schedstat.trim().split(" +");
        return new Waits(Duration.ofNanos(Long.parseLong(fields[1])), Long.parseLong(fields[2]));
    }

    /** Field 2 of a {@code stat} line: the name between the first '(' and the last ')' (it may hold either). */
    private static String threadName(String stat) {
        return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    }

    private static Duration cpuOf(String stat) {
        // the command name (field 2) may hold spaces and parentheses: fields count from the last ')'
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" +");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime (14) + stime (15), 1-based from pid
        return Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND);
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
            cpuTime(pid).ifPresent(cpu -> {
                Threads threads = threads(pid);
                readings.put(pid, new Reading(pid, kinds.getOrDefault(pid, Kind.OTHER), cpu, threads.jit(), threads.waits()));
            });
        }
        return readings;
    }

    /** What one process burned between two of its readings. */
    public static Usage between(Reading before, Reading after) {
        return new Usage(after.cpu().minus(before.cpu()), after.jit().minus(before.jit()), after.waits().since(before.waits()));
    }

    /** CPU per kind between two readings of the same processes; a process missing from either is left out. */
    public static Map<Kind, Usage> perKind(Map<Long, Reading> before, Map<Long, Reading> after) {
        Map<Kind, Usage> sums = new LinkedHashMap<>();
        after.forEach((pid, now) -> {
            Reading then = before.get(pid);
            if (then != null) {
                sums.merge(now.kind(), between(then, now), Usage::plus);
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
