package org.brokerapp.loadtest.measure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import org.brokerapp.infra.ProcessCpu;
import org.brokerapp.infra.ProcessCpu.Kind;
import org.brokerapp.loadtest.report.ResultTable;
import org.brokerapp.loadtest.run.WindowProbe;

/**
 * Where the CPU goes: utime + stime of every process of the run, from {@code /proc/<pid>/stat},
 * summed per kind (Cassandra nodes, Kafka brokers, the brokers, the harness itself, the WAN
 * emulator) over the measured window and, when the run measured one, over an idle baseline before
 * any load; the window's CPU above the idle rate is divided by the orders placed in the window.
 * A process that ended in between is left out of both sums.
 */
public final class ProcessCpuProbe implements WindowProbe {

    /** The rows, in this order. */
    static final List<Kind> KINDS = List.of(Kind.CASSANDRA, Kind.KAFKA, Kind.BROKER, Kind.HARNESS, Kind.TOXIPROXY, Kind.OTHER);

    private final Supplier<Map<Long, Kind>> processes;
    private Map<Long, ProcessCpu.Reading> idleStart;
    private long idleStartNanos;
    private Map<Kind, Double> idleCoresByKind;
    private double idleSeconds;
    private Map<Long, ProcessCpu.Reading> windowStart;

    /** @param processes every process to meter, pid to kind (asked at each reading: brokers may start late) */
    public ProcessCpuProbe(Supplier<Map<Long, Kind>> processes) {
        this.processes = processes;
    }

    @Override
    public void idleStarted() {
        idleStart = read();
        idleStartNanos = System.nanoTime();
    }

    @Override
    public void idleEnded() {
        idleSeconds = (System.nanoTime() - idleStartNanos) / 1e9;
        idleCoresByKind = new EnumMap<>(Kind.class);
        ProcessCpu.perKind(idleStart, read()).forEach((kind, cpu) -> idleCoresByKind.put(kind, seconds(cpu) / idleSeconds));
    }

    @Override
    public void windowStarted() {
        windowStart = read();
    }

    @Override
    public List<ResultTable> windowEnded(WindowFacts facts) {
        Map<Long, ProcessCpu.Reading> end = read();
        Map<Kind, Duration> cpu = ProcessCpu.perKind(windowStart, end);
        Map<Kind, Long> counts = new EnumMap<>(Kind.class);
        end.values().forEach(r -> {
            if (windowStart.containsKey(r.pid())) {
                counts.merge(r.kind(), 1L, Long::sum);
            }
        });
        List<ResultTable.Row> rows = new ArrayList<>();
        double totalCpu = 0;
        double totalIdle = 0;
        for (Kind kind : KINDS) {
            if (!cpu.containsKey(kind)) {
                continue;
            }
            double s = seconds(cpu.get(kind));
            Double idleCores = idleCoresByKind == null ? null : idleCoresByKind.getOrDefault(kind, 0.0);
            totalCpu += s;
            totalIdle += idleCores == null ? 0 : idleCores;
            rows.add(row(kind.label(), counts.getOrDefault(kind, 0L), s, idleCores, facts));
        }
        rows.add(row("**all**", counts.values().stream().mapToLong(Long::longValue).sum(), totalCpu, idleCoresByKind == null ? null : totalIdle, facts));
        String note = idleCoresByKind == null
                ? "No idle baseline was measured (--idle-baseline 0): the per-order figures include what the processes burn idle."
                : String.format(Locale.ROOT, "Idle baseline: %.0f s with every process up and no load, before priming; "
                + "\"above idle\" subtracts each kind's idle rate over the window's length. Orders: %,d accepted in the window.",
                idleSeconds, facts.ordersAccepted());
        return List.of(new ResultTable(String.format(Locale.ROOT, "CPU per process kind over the window (%.0f s), from /proc (utime + stime)", facts.seconds()),
                "kind", List.of("processes", "CPU s", "% of one core", "idle: % of one core", "above idle: CPU s",
                        "CPU ms per order (= s per 1,000 orders)", "the same, idle subtracted"), rows, note));
    }

    private static ResultTable.Row row(String label, long processes, double cpuSeconds, Double idleCores, WindowFacts facts) {
        double orders = facts.ordersAccepted();
        Double aboveIdle = idleCores == null ? null : cpuSeconds - idleCores * facts.seconds();
        return new ResultTable.Row(label, List.of(Long.toString(processes), fmt("%.2f", cpuSeconds), fmt("%.1f", 100 * cpuSeconds / facts.seconds()),
                idleCores == null ? "-" : fmt("%.1f", 100 * idleCores), aboveIdle == null ? "-" : fmt("%.2f", aboveIdle),
                orders == 0 ? "-" : fmt("%.2f", 1000 * cpuSeconds / orders),
                orders == 0 || aboveIdle == null ? "-" : fmt("%.2f", 1000 * aboveIdle / orders)));
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
