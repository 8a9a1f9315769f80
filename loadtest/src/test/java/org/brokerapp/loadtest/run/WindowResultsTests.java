package org.brokerapp.loadtest.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.HdrHistogram.Histogram;
import org.brokerapp.loadtest.deployment.CqlEndpoint;
import org.brokerapp.loadtest.deployment.Target;
import org.brokerapp.loadtest.measure.BrokerScraper;
import org.brokerapp.loadtest.measure.Counters;
import org.brokerapp.loadtest.measure.ExactLatency;
import org.brokerapp.loadtest.measure.LatencySummary;
import org.brokerapp.loadtest.measure.Measures;
import org.brokerapp.loadtest.report.MeasureResult;
import org.brokerapp.loadtest.report.WindowResult;
import org.brokerapp.loadtest.workload.Preset;
import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.junit.jupiter.api.Test;

class WindowResultsTests {

    private static LatencySummary flat(long micros) {
        return LatencySummary.of(samples(micros, 100));
    }

    private static Histogram samples(long micros, int count) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(micros, count);
        return h;
    }

    /** The window of a demo over the default regions, from the harness's own histograms only. */
    private static WindowResult windowOf(Map<String, Histogram> client) {
        return WindowResults.assemble(Preset.DEMO.spec(List.of("us-east-1", "ap-southeast-2")), defaultRegions(), 60,
                new Counters().snapshot(), new BrokerScraper.Scrape(Map.of(), Map.of(), true), client, Map.of(), List.of(), 0);
    }

    @Test
    void aMeasureIsSetAgainstTheFloorAndACrossRegionOneAgainstTheRoundTrip() {
        MeasureResult r = WindowResults.row(Measures.market("ap-southeast-2", true), MeasureResult.CLIENT, "ap-southeast-2", true,
                flat(253_000), flat(5_000), WindowResults.roundTripFrom(RegionsFile.loadDefault(), "ap-southeast-2"));

        assertThat(r.rttMillis()).isEqualTo(230.0);
        assertThat(r.p99VsRtt()).isCloseTo(1.1, org.assertj.core.data.Offset.offset(0.01));
        assertThat(r.p50VsFloor()).isCloseTo(50.6, org.assertj.core.data.Offset.offset(0.1));
        assertThat(r.p99VsFloor()).isEqualTo(r.p50VsFloor());
    }

    /** Issue #12's region cut: a region cut off must refuse fast, so a refusal's time is a row of its own. */
    @Test
    void aRefusedOrderIsReportedWithItsOwnLatencyAgainstTheRoundTrip() {
        String name = Measures.refused("MARKET", "ap-southeast-2", true);

        WindowResult window = windowOf(Map.of(name, samples(12_000, 10), Measures.floor("ap-southeast-2"), samples(5_000, 100)));

        MeasureResult row = window.measures().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
        assertThat(name).isEqualTo("refused MARKET @ap-southeast-2 cross-region");
        assertThat(row.latency().p50()).isCloseTo(12.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(row.rttMillis()).isEqualTo(230.0);
        assertThat(row.p50VsFloor()).isCloseTo(2.4, org.assertj.core.data.Offset.offset(0.05));
    }

    /** A tick's first leg, the harness's send to Kafka's acknowledgement, is a row per region against that region's floor. */
    @Test
    void aTicksFirstLegIsSetAgainstItsRegionsFloor() {
        String name = Measures.tickProduced("us-east-1");

        WindowResult window = windowOf(Map.of(name, samples(1_500, 60), Measures.floor("us-east-1"), samples(3_000, 100),
                Measures.floor("ap-southeast-2"), samples(6_000, 100)));

        MeasureResult row = window.measures().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
        assertThat(name).isEqualTo("tick produced @us-east-1");
        assertThat(row.latency().count()).isEqualTo(60);
        assertThat(row.p50VsFloor()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.01));
        assertThat(row.rttMillis()).isNull();
    }

    /** The bare round trip across the emulated WAN is set against the configured one, and against no write floor. */
    @Test
    void theWanFloorIsARowOfItsOwnAgainstTheConfiguredRoundTrip() {
        String name = Measures.wanFloor("us-east-1");

        WindowResult window = windowOf(Map.of(name, samples(232_000, 100), Measures.floor("us-east-1"), samples(5_000, 100)));

        MeasureResult row = window.measures().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
        assertThat(row.latency().p50()).isCloseTo(232.0, org.assertj.core.data.Offset.offset(0.2));
        assertThat(row.rttMillis()).isEqualTo(230.0);
        assertThat(row.p50VsRtt()).isCloseTo(1.01, org.assertj.core.data.Offset.offset(0.005));
        assertThat(row.p50VsFloor()).isNull();
    }

    /** A broker's measure that had nothing to time in the window (no region was cut off: no refusal) is not a row of zeros. */
    @Test
    void aBrokerMeasureWithoutSamplesInTheWindowHasNoRow() {
        Histogram tickToFill = new Histogram(3);
        tickToFill.recordValueWithCount(20_000, 50);
        Histogram requests = new Histogram(3);
        requests.recordValueWithCount(8_000, 50);
        Map<String, Histogram> measures = new java.util.LinkedHashMap<>();
        measures.put(ExactLatency.TICK_TO_FILL, tickToFill);
        measures.put("order-request", requests);
        measures.put("market-refused-request", new Histogram(3));
        BrokerScraper.Scrape scrape = new BrokerScraper.Scrape(Map.of(), Map.of(), true, Map.of("us-east-1", new ExactLatency(measures)));

        WindowResult window = WindowResults.assemble(Preset.DEMO.spec(List.of("us-east-1", "ap-southeast-2")), defaultRegions(), 60,
                new Counters().snapshot(), scrape, Map.of(), Map.of(), List.of(), 0);

        List<String> names = window.measures().stream().map(MeasureResult::name).toList();
        assertThat(names).contains("order-request @us-east-1").noneMatch(name -> name.startsWith("market-refused-request"));
    }

    private static Target defaultRegions() {
        RegionsModel regions = RegionsFile.loadDefault();
        return new Target() {
            @Override
            public RegionsModel regions() {
                return regions;
            }

            @Override
            public Map<String, String> brokerUrls() {
                return Map.of();
            }

            @Override
            public Map<String, Object> tickKafka(String region) {
                return Map.of();
            }

            @Override
            public Optional<CqlEndpoint> cql(String region) {
                return Optional.empty();
            }

            @Override
            public String describe() {
                return "the default regions";
            }

            @Override
            public boolean wanEmulated() {
                return true;
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void withoutSamplesThereIsNoRatio() {
        MeasureResult r = WindowResults.row("x", MeasureResult.CLIENT, null, false, LatencySummary.EMPTY, flat(5_000), null);

        assertThat(r.p50VsFloor()).isNull();
        assertThat(r.p99VsRtt()).isNull();
    }

    @Test
    void theLiveLineShowsRatesErrorsAndTheP99sSoFar() {
        var interval = new org.brokerapp.loadtest.measure.Counters.Snapshot(5_000_000_000L, 50, 45, 5, 2, 200, 0, 25, 0);

        String line = LiveProgress.line("measured", 10, 60, interval, 9, 7, 12.34, -1, 25, true);

        assertThat(line).isEqualTo("measured 10/60 s: orders 10/s sent, 9/s ok | ticks 40/s | fills 9/s | errors 7 (+5)"
                + " | p99 so far: placement 12.3 ms, market -, ticker-to-fill <= 25.0 ms");
        assertThat(List.of(LiveProgress.ms(1.234), LiveProgress.ms(-1))).containsExactly("1.23 ms", "-");
    }
}
