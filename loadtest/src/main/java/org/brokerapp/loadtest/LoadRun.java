package org.brokerapp.loadtest;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.brokerapp.infra.host.Progress;
import org.brokerapp.loadtest.check.CheckResult;
import org.brokerapp.loadtest.deployment.Target;
import org.brokerapp.loadtest.probe.ResultTable;
import org.brokerapp.loadtest.probe.WindowProbe;
import org.brokerapp.loadtest.report.RunResult;
import org.brokerapp.loadtest.report.SlaResult;
import org.brokerapp.loadtest.report.WindowResult;
import org.brokerapp.loadtest.run.Harness;
import org.brokerapp.loadtest.sla.SlaPlan;
import org.brokerapp.loadtest.sla.SlaSearch;
import org.brokerapp.loadtest.workload.WorkloadSpec;

/**
 * One run of the harness against a target, start to result: priming, one load level (or an SLA
 * search), the correctness check, and the {@link RunResult} every report renders. The command line
 * and the smoke test both go through here.
 */
public final class LoadRun {

    /**
     * How to run, beside the load itself.
     *
     * @param title   the report's heading
     * @param preset  the preset's name, for the record
     * @param command the command line, for the record
     * @param floor   time bare LOCAL_QUORUM writes beside the load (where the target has a CQL endpoint)
     * @param check   audit every customer's ledger afterwards
     * @param probes  measured over the window too (e.g. write amplification); their tables join the result
     * @param idleBaseline how long the probes measure the target at rest before any load (zero: not at all)
     * @param latencyLogs  where the client latencies of every interval go as HdrHistogram logs ({@code <measure>.hlog}), if anywhere
     */
    public record Settings(String title, String preset, String command, Duration progressEvery, BigDecimal openingCash, boolean floor,
                           boolean check, Optional<SlaPlan> sla, List<WindowProbe> probes, Duration idleBaseline, Optional<Path> latencyLogs) {

        public static Settings defaults(String title) {
            return new Settings(title, "custom", "", Duration.ofSeconds(5), new BigDecimal("10000000.00"), true, true, Optional.empty(), List.of(),
                    Duration.ZERO, Optional.empty());
        }
    }

    private LoadRun() {
    }

    public static RunResult execute(Target target, WorkloadSpec spec, Settings settings, Progress progress) throws InterruptedException {
        String startedAt = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        String runId = "lt" + UUID.randomUUID().toString().substring(0, 8);
        List<String> notes = new ArrayList<>();
        if (target.regions().names().size() > 1 && !target.wanEmulated()) {
            notes.add("the WAN between regions is not emulated by this target: RTT ratios use the regions model's latencies");
        }
        try (Harness harness = Harness.open(target, spec.symbolsPerRegion(), spec.seed(), settings.floor(), runId, settings.progressEvery(),
                settings.probes(), progress)) {
            settings.latencyLogs().ifPresent(harness::logLatenciesTo);
            harness.idleBaseline(settings.idleBaseline(), spec.floorWritesPerSecond()).ifPresent(notes::add);
            harness.prime(spec);
            WindowResult window;
            SlaResult sla = null;
            if (settings.sla().isPresent()) {
                SlaSearch.Outcome outcome = new SlaSearch(harness, progress).run(spec, settings.sla().get());
                sla = outcome.result();
                window = outcome.representative();
                notes.add("the window reported in detail is the SLA search's highest passing step (the first step when none passed)");
            } else {
                window = harness.measure(spec);
            }
            harness.errorExamples().forEach((kind, example) -> {
                if (window.errors().containsKey(kind)) {
                    notes.add("first " + kind + ": " + example);
                }
            });
            CheckResult check = settings.check() ? harness.check(settings.openingCash()) : CheckResult.skipped("--no-check");
            RunResult result = new RunResult(settings.title(), settings.preset(), startedAt, settings.command(), target.describe(), machine(),
                    describe(spec), window, check, sla, null, List.of(), notes);
            for (ResultTable table : harness.probeTables()) {
                result = result.withTable(table);
            }
            return result;
        }
    }

    /** The load as people read it. */
    public static Map<String, String> describe(WorkloadSpec spec) {
        Map<String, String> load = new LinkedHashMap<>();
        load.put("orders/s", fmt(spec.ordersPerSecond()));
        load.put("ticks/s", fmt(spec.ticksPerSecond()));
        load.put("mix", spec.mix().toString());
        load.put("BUY share", fmt(spec.buyShare()));
        load.put("marketable share", fmt(spec.marketableShare()));
        load.put("cross-region share", fmt(spec.crossRegionShare()));
        load.put("expected trades/s", fmt(spec.expectedTradesPerSecond()));
        load.put("symbols", spec.symbolsPerRegion().toString());
        load.put("customers", Integer.toString(spec.customers()));
        load.put("ramp-up", spec.rampUp().toSeconds() + " s");
        load.put("warm-up", spec.warmUp().toSeconds() + " s");
        load.put("measured", spec.duration().toSeconds() + " s");
        load.put("drain", spec.drain().toSeconds() + " s");
        load.put("floor writes/s", fmt(spec.floorWritesPerSecond()));
        load.put("seed", Long.toString(spec.seed()));
        return load;
    }

    static String machine() {
        Runtime rt = Runtime.getRuntime();
        return String.format(Locale.ROOT, "%d CPUs, %s %s, Java %s, harness heap max %d MB", rt.availableProcessors(), System.getProperty("os.name"),
                System.getProperty("os.arch"), System.getProperty("java.version"), rt.maxMemory() / (1024 * 1024));
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
