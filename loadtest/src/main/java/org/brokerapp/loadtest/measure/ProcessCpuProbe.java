package org.brokerapp.loadtest.measure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.brokerapp.infra.host.ProcessCpu;
import org.brokerapp.infra.host.ProcessCpu.Kind;
import org.brokerapp.loadtest.probe.ResultTable;
import org.brokerapp.loadtest.probe.WindowProbe;

/**
 * Where the CPU goes: utime + stime of every process of the run, from {@code /proc/<pid>/stat},
 * summed per kind (Cassandra nodes, Kafka brokers, the brokers, the harness itself, the WAN
 * emulator) over the measured window and, when the run measured one, over an idle baseline before
 * any load; the window's CPU above the idle rate is divided by the orders placed in the window.
 * The JVMs' JIT compiling is shown apart and once more subtracted: in a short run it is a large
 * share of the window, paid once per start rather than per order. A process that ended in between
 * is left out of both sums. The last two columns say how long the window's runnable threads waited
 * for a core (the compiler threads apart): on a saturated machine that wait, paid at every hand-over
 * between threads, is most of a request's latency.
 */
public final class ProcessCpuProbe implements WindowProbe {

    /** The rows, in this order. */
    static final List<Kind> KINDS = List.of(Kind.CASSANDRA, Kind.KAFKA, Kind.BROKER, Kind.HARNESS, Kind.TOXIPROXY, Kind.OTHER);

    private final Supplier<Map<Long, Kind>> processes;
    private Map<Long, ProcessCpu.Reading> idleStart;
    private long idleStartNanos;
    private Map<Kind, ProcessCpu.Usage> idleByKind;
    private double idleSeconds;
    private Map<Long, ProcessCpu.Reading> windowStart;
    private Map<Long, ProcessCpu.Reading> lastAsked = Map.of();
    private long windowStartNanos;

    /** @param processes every process to meter, pid to kind (asked at each reading: brokers may start late) */
    public ProcessCpuProbe(Supplier<Map<Long, Kind>> processes) {
        this.processes = processes;
    }

    @Override
    public Optional<Duration> cpuSinceLastAsked() {
        Map<Long, ProcessCpu.Reading> now = read();
        Duration burned = ProcessCpu.perKind(lastAsked, now).values().stream().map(ProcessCpu.Usage::cpu).reduce(Duration.ZERO, Duration::plus);
        lastAsked = now;
        return Optional.of(burned);
    }

    @Override
    public void idleStarted() {
        idleStart = read();
        idleStartNanos = System.nanoTime();
    }

    @Override
    public void idleEnded() {
        idleSeconds = (System.nanoTime() - idleStartNanos) / 1e9;
        idleByKind = new EnumMap<>(ProcessCpu.perKind(idleStart, read()));
    }

    @Override
    public void windowStarted() {
        windowStart = read();
        windowStartNanos = System.nanoTime();
    }

    @Override
    public List<ResultTable> windowEnded(WindowFacts facts) {
        Map<Long, ProcessCpu.Reading> end = read();
        // the rates come from the readings' own interval: a saturated harness reads late (a window of 63 s once read over ~90)
        double readSeconds = (System.nanoTime() - windowStartNanos) / 1e9;
        Map<Kind, ProcessCpu.Usage> usage = ProcessCpu.perKind(windowStart, end);
        Map<Kind, Long> counts = new EnumMap<>(Kind.class);
        end.values().forEach(r -> {
            if (windowStart.containsKey(r.pid())) {
                counts.merge(r.kind(), 1L, Long::sum);
            }
        });
        List<ResultTable.Row> rows = new ArrayList<>();
        Rates all = Rates.NONE;
        for (Kind kind : KINDS) {
            if (!usage.containsKey(kind)) {
                continue;
            }
            Rates rates = Rates.of(usage.get(kind), readSeconds, idleByKind == null ? null : idleByKind.getOrDefault(kind, ProcessCpu.Usage.NONE), idleSeconds);
            all = all.plus(rates);
            rows.add(row(kind.label(), counts.getOrDefault(kind, 0L), rates, facts));
        }
        rows.add(row("**all**", counts.values().stream().mapToLong(Long::longValue).sum(), all, facts));
        String note = idleByKind == null
                ? "No idle baseline was measured (--idle-baseline 0): the per-order figures include what the processes burn idle."
                : String.format(Locale.ROOT, "Idle baseline: %.0f s with every process up, no orders and no ticks, before priming; the floor's bare writes (if any), "
                + "the harness's instrument, ran through it at the window's rate, so their cost is not counted as the orders'; "
                + "\"above idle\" subtracts each kind's idle rate over the window's length. \"JIT\" is the JVMs' compiler threads, "
                + "work a JVM does once after it starts (the last column subtracts it, in the window and in the idle rate). "
                + "Orders: %,d accepted in the window. Rates from readings %.1f s apart, CPU s their rate over the window. "
                + "Waiting for a core: the run-queue wait of the kind's threads, compilers apart (/proc/<pid>/task/*/schedstat), "
                + "as threads waiting at any moment on average, and per time a thread was put on a core.",
                idleSeconds, facts.ordersAccepted(), readSeconds);
        return List.of(new ResultTable(String.format(Locale.ROOT, "CPU per process kind over the window (%.0f s), from /proc (utime + stime)", facts.seconds()),
                "kind", List.of("processes", "CPU s", "% of one core", "of which JIT compiling", "idle: % of one core", "above idle: CPU s",
                        "CPU ms per order (= s per 1,000 orders)", "the same, idle subtracted", "the same, idle and JIT subtracted",
                        "threads waiting for a core, on average", "wait for a core per dispatch, µs"), rows, note));
    }

    /**
     * One kind's CPU in the window, in cores (CPU seconds per second), and its idle rate if one was
     * measured; each with the part that was JIT compiling; and its threads' waits for a core in the
     * window, as threads waiting at any moment and times put on a core, both per second.
     */
    private record Rates(double cores, double jitCores, Double idleCores, Double idleJitCores, double waitingThreads, double dispatchesPerSecond) {

        static final Rates NONE = new Rates(0, 0, null, null, 0, 0);

        static Rates of(ProcessCpu.Usage window, double windowSeconds, ProcessCpu.Usage idle, double idleSeconds) {
            return new Rates(seconds(window.cpu()) / windowSeconds, seconds(window.jit()) / windowSeconds,
                    idle == null ? null : seconds(idle.cpu()) / idleSeconds, idle == null ? null : seconds(idle.jit()) / idleSeconds,
                    seconds(window.waits().waited()) / windowSeconds, window.waits().dispatches() / windowSeconds);
        }

        Rates plus(Rates other) {
            return new Rates(cores + other.cores, jitCores + other.jitCores, sum(idleCores, other.idleCores), sum(idleJitCores, other.idleJitCores),
                    waitingThreads + other.waitingThreads, dispatchesPerSecond + other.dispatchesPerSecond);
        }

        private static Double sum(Double a, Double b) {
            if (a == null || b == null) {
                return a == null ? b : a;
            }
            return a + b;
        }
    }

    private static ResultTable.Row row(String label, long processes, Rates r, WindowFacts facts) {
        double orders = facts.ordersAccepted();
        double cpuSeconds = r.cores() * facts.seconds();
        Double aboveIdle = r.idleCores() == null ? null : (r.cores() - r.idleCores()) * facts.seconds();
        Double aboveIdleWithoutJit = r.idleCores() == null ? null
                : ((r.cores() - r.jitCores()) - (r.idleCores() - r.idleJitCores())) * facts.seconds();
        return new ResultTable.Row(label, List.of(Long.toString(processes), fmt("%.2f", cpuSeconds), fmt("%.1f", 100 * r.cores()),
                fmt("%.1f", 100 * r.jitCores()),
                r.idleCores() == null ? "-" : fmt("%.1f", 100 * r.idleCores()), aboveIdle == null ? "-" : fmt("%.2f", aboveIdle),
                orders == 0 ? "-" : fmt("%.2f", 1000 * cpuSeconds / orders),
                orders == 0 || aboveIdle == null ? "-" : fmt("%.2f", 1000 * aboveIdle / orders),
                orders == 0 || aboveIdleWithoutJit == null ? "-" : fmt("%.2f", 1000 * aboveIdleWithoutJit / orders),
                fmt("%.1f", r.waitingThreads()), r.dispatchesPerSecond() <= 0 ? "-" : fmt("%.0f", 1e6 * r.waitingThreads() / r.dispatchesPerSecond())));
    }

    private Map<Long, ProcessCpu.Reading> read() {
        Map<Long, Kind> kinds = processes.get();
        return ProcessCpu.read(kinds.keySet(), kinds);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    private static String fmt(String format, double value) {
        return String.format(Locale.ROOT, format, value);
    }
}
