package org.brokerapp.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.loadtest.cli.LoadTestCli;
import org.brokerapp.loadtest.deployment.LocalTarget;
import org.brokerapp.loadtest.measure.LatencyLog;
import org.brokerapp.loadtest.measure.LatencySummary;
import org.brokerapp.loadtest.measure.Measures;
import org.brokerapp.loadtest.probe.ResultTable;
import org.brokerapp.loadtest.report.MeasureResult;
import org.brokerapp.loadtest.report.ResultsDirectory;
import org.brokerapp.loadtest.report.RunResult;
import org.brokerapp.loadtest.workload.Preset;
import org.brokerapp.loadtest.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;

/**
 * The harness end to end against the real two-region stack (the test JVM's shared one), seconds of
 * load: every measure has samples and sane percentiles, the correctness check passes, the reports
 * are written. No performance thresholds: this machine's figures are not this test's business.
 * A fifth of the orders are MARKET orders, local and routed across the emulated WAN.
 */
@LocalStackTest
class HarnessSmokeIT {

    static final double MARKET_SHARE = 0.2;
    private static final Path HLOGS = Path.of("target/smoke-hlog");

    @Test
    void aSmokeRunMeasuresEveryPathAndChecksTheLedgers(LocalStack stack) throws Exception {
        WorkloadSpec spec = Preset.SMOKE.spec(stack.regions().names());
        spec = new WorkloadSpec(spec.ordersPerSecond(), spec.ticksPerSecond(), spec.mix().withMarket(MARKET_SHARE), spec.buyShare(),
                spec.marketableShare(), spec.crossRegionShare(), spec.symbolsPerRegion(), spec.customers(), Duration.ofSeconds(2),
                Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofSeconds(3), spec.floorWritesPerSecond(), spec.primeShares(), spec.seed());
        Path jar = Path.of("../broker-service/target/broker-service-0.1.0-SNAPSHOT.jar");
        Progress progress = new Progress(System.out);
        RunResult result;
        try (LocalTarget target = LocalTarget.attach(stack, Path.of("target/smoke-logs"), jar, spec.customers(), List.of(), progress)) {
            LoadRun.Settings defaults = LoadRun.Settings.defaults("harness smoke test");
            LoadRun.Settings settings = new LoadRun.Settings(defaults.title(), defaults.preset(), defaults.command(), defaults.progressEvery(),
                    defaults.openingCash(), defaults.floor(), defaults.check(), defaults.sla(),
                    LoadTestCli.localMeasures(target), Duration.ofSeconds(5), Optional.of(HLOGS));
            result = LoadRun.execute(target, spec, settings, progress);
        }

        Map<String, MeasureResult> measures = result.window().measures().stream()
                .collect(java.util.stream.Collectors.toMap(MeasureResult::name, m -> m));
        // every path has its row; on a busy 2-core machine a region may fill nothing within seconds, so counts are asserted
        // where the load guarantees samples, and every row with samples must be sane
        assertThat(measures).containsKeys("floor LOCAL_QUORUM write @us-east-1", "floor LOCAL_QUORUM write @ap-southeast-2",
                "ticker-to-fill @us-east-1", "ticker-to-fill @ap-southeast-2", "ticker-to-fill (all regions)",
                "placement @us-east-1 local", "placement @ap-southeast-2 local");
        assertThat(measures.keySet()).anyMatch(name -> name.startsWith("placement") && name.endsWith("cross-region"));
        // fills pushed to the streamed customers' streams, in both regions, decided in the region of the stream or across the WAN
        assertThat(measures.values()).filteredOn(m -> m.name().startsWith(Measures.FILL_TO_CUSTOMER)).extracting(MeasureResult::region)
                .contains("us-east-1", "ap-southeast-2");
        for (String name : List.of("floor LOCAL_QUORUM write @us-east-1", "floor LOCAL_QUORUM write @ap-southeast-2", "ticker-to-fill (all regions)",
                "placement @us-east-1 local", "placement @ap-southeast-2 local",
                "WAN round trip, bare TCP @us-east-1", "WAN round trip, bare TCP @ap-southeast-2")) {
            assertThat(measures.get(name).latency().count()).as(name).isPositive();
        }
        if (MARKET_SHARE > 0) {
            assertThat(measures.keySet()).anyMatch(name -> name.startsWith("market") && name.endsWith("local"));
            assertThat(measures.keySet()).anyMatch(name -> name.startsWith("market") && name.endsWith("cross-region"));
        }
        for (MeasureResult m : measures.values()) {
            LatencySummary l = m.latency();
            assertThat(l.count()).as(m.name()).isNotNegative();
            if (l.count() == 0) {
                continue;
            }
            assertThat(l.p50()).as(m.name()).isPositive().isLessThanOrEqualTo(l.p99());
            if (!l.upperBounds()) {
                assertThat(l.p99()).as(m.name()).isLessThanOrEqualTo(l.max());
                assertThat(l.mean()).as(m.name()).isPositive();
            }
            assertThat(l.curve()).as(m.name()).allSatisfy(p -> assertThat(p.millis()).isNotNegative());
            if (m.crossRegion()) {
                assertThat(m.rttMillis()).as(m.name()).isEqualTo(230.0);
            }
            if (m.name().startsWith(Measures.WAN_FLOOR)) {
                // a round trip through the emulator, set against the configured one it cannot beat; it is not a write
                assertThat(m.rttMillis()).as(m.name()).isEqualTo(230.0);
                assertThat(l.p50()).as(m.name()).isGreaterThanOrEqualTo(230.0);
                continue;
            }
            assertThat(m.p99VsFloor()).as(m.name()).isNotNull().isPositive();
        }
        assertThat(result.window().throughput().ordersAccepted()).isPositive();
        assertThat(result.window().throughput().fills()).isPositive();
        assertThat(result.window().timeline()).isNotEmpty();
        assertThat(result.check().problems()).isEmpty();
        assertThat(result.check().passed()).isTrue();
        assertThat(result.check().accepted()).isPositive();

        // write amplification, measured: a row per DC with replica writes, and at least one replica write per client mutation
        ResultTable amplification = result.tables().stream().filter(t -> t.title().startsWith("Write amplification")).findFirst().orElseThrow();
        for (String dc : stack.regions().names()) {
            ResultTable.Row row = amplification.rows().stream().filter(r -> r.label().equals(stack.localDatacenter(dc))).findFirst().orElseThrow();
            long replicaWrites = Long.parseLong(row.values().get(3).replace(",", ""));
            assertThat(replicaWrites).as("replica writes in " + dc).isPositive();
        }
        ResultTable.Row all = amplification.rows().get(amplification.rows().size() - 1);
        double factor = Double.parseDouble(all.values().get(4).replace("*", "").split(" ")[0]);
        assertThat(factor).as("replica writes per client mutation, cluster-wide").isGreaterThanOrEqualTo(1.0);

        // ticker-to-fill and receipt-to-fill from the brokers' exact histograms, not Prometheus buckets
        assertThat(measures.get("ticker-to-fill (all regions)").source()).isEqualTo(MeasureResult.BROKER_EXACT);
        assertThat(measures.get("ticker-to-fill (all regions)").latency().upperBounds()).isFalse();
        assertThat(measures).containsKey("receipt-to-fill (all regions)");
        // and a filled tick's way leg by leg: the harness's send to Kafka's acknowledgement, then the brokers' three legs
        assertThat(measures.keySet()).anyMatch(m -> m.startsWith("tick produced @"));
        for (String leg : List.of("tick-to-receipt", "receipt-to-decision", "decision-to-fill")) {
            assertThat(measures.get(leg + " (all regions)").latency().count()).as(leg).isPositive();
        }
        // and where a placement's time goes: the broker's request, the owner's work, its two durable steps, all sampled
        for (String step : List.of("order-request", "order-request-to-controller", "owner-placement", "owner-placement-rows",
                "owner-placement-event")) {
            assertThat(measures.get(step + " (all regions)").latency().count()).as(step).isPositive();
        }

        // CPU per process kind: every kind of process ran and burned something in the window
        ResultTable cpu = result.tables().stream().filter(t -> t.title().startsWith("CPU per process kind")).findFirst().orElseThrow();
        assertThat(cpu.rows()).extracting(ResultTable.Row::label).contains("cassandra", "kafka", "broker", "harness", "**all**");
        assertThat(cpu.rows()).allSatisfy(r -> assertThat(Double.parseDouble(r.values().get(1))).as(r.label()).isNotNegative());
        // the brokers started moments ago: their JIT compilers are at work
        assertThat(cpu.rows()).filteredOn(r -> r.label().equals("broker")).allSatisfy(r -> assertThat(Double.parseDouble(r.values().get(3))).isPositive());
        assertThat(result.tables()).anyMatch(t -> t.title().startsWith("Cassandra work per placed order"));
        // what the brokers and the harness still had waiting for the JIT: a row each, every one answered
        ResultTable queues = result.tables().stream().filter(t -> t.title().startsWith("Methods waiting for the JIT")).findFirst().orElseThrow();
        assertThat(queues.rows()).extracting(ResultTable.Row::label).filteredOn(l -> l.startsWith("broker "))
                .hasSizeGreaterThanOrEqualTo(stack.regions().names().size());
        assertThat(queues.rows()).extracting(ResultTable.Row::label).anyMatch(l -> l.startsWith("harness "));
        assertThat(queues.rows()).allSatisfy(r -> assertThat(r.values()).allSatisfy(v -> assertThat(Integer.parseInt(v)).isNotNegative()));

        // the client latencies as HdrHistogram logs, read back with HdrHistogram's own reader: a measure's measured intervals
        // hold exactly the samples of its row in the report
        for (String name : List.of("placement @us-east-1 local", "placement @ap-southeast-2 local")) {
            assertThat(measuredSamples(HLOGS.resolve(LatencyLog.fileName(name)))).as(name).isEqualTo(measures.get(name).latency().count());
        }

        Path dir = Path.of("target/smoke-results");
        ResultsDirectory.write(dir, result);
        assertThat(Files.readString(dir.resolve("report.html"))).contains("<svg");
    }

    /** The samples of a log's intervals tagged as a measured window. */
    private static long measuredSamples(Path log) throws java.io.IOException {
        long samples = 0;
        HistogramLogReader reader = new HistogramLogReader(log.toFile());
        for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
            if (h.getTag() != null && h.getTag().startsWith("measured-")) {
                samples += ((Histogram) h).getTotalCount();
            }
        }
        return samples;
    }
}
