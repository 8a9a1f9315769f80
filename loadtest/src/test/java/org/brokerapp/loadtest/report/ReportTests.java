package org.brokerapp.loadtest.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.brokerapp.loadtest.check.CheckResult;
import org.brokerapp.loadtest.measure.LatencySummary;
import org.brokerapp.loadtest.probe.ResultTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTests {

    private static Histogram sampleMarket() {
        Histogram market = new Histogram(3);
        for (int i = 1; i <= 1000; i++) {
            market.recordValue(230_000 + i * 20);
        }
        return market;
    }

    static RunResult sample() {
        Histogram floor = new Histogram(3);
        Histogram market = sampleMarket();
        for (int i = 1; i <= 1000; i++) {
            floor.recordValue(1000 + i * 5);
        }
        MeasureResult floorRow = new MeasureResult("floor LOCAL_QUORUM write @us-east-1", MeasureResult.CLIENT, "us-east-1", false,
                LatencySummary.of(floor), 1.0, 1.0, null, null, null);
        MeasureResult marketRow = new MeasureResult("market @ap-southeast-2 cross-region", MeasureResult.CLIENT, "ap-southeast-2", true,
                LatencySummary.of(market), 95.0, 40.0, 230.0, 1.05, 1.09);
        List<TimelinePoint> timeline = List.of(new TimelinePoint(5, "warm-up", 10, 9, 40, 5, 1), new TimelinePoint(10, "measured", 10, 10, 40, -1, 0));
        WindowResult window = new WindowResult(10, new Throughput(10, 10, 9.5, 0.5, 2, 40, 40, 6, 5.5, 5), List.of(floorRow, marketRow),
                Map.of("MARKET: HTTP 422 Unsupported order", 5L), timeline, 3, true);
        Map<String, String> load = new LinkedHashMap<>();
        load.put("orders/s", "10");
        SlaResult sla = new SlaResult(10, List.of(new SlaResult.Step(1, 10, 40, 10, 6, 60, 4.5, 0, true, "passed"),
                new SlaResult.Step(2, 20, 80, 19, 12, 120, 15, 0, false, "p99 ticker-to-fill 15.0 ms >= SLA 10.0 ms")), 10.0, 40.0, 6.0,
                "highest sustained load under p99 ticker-to-fill 10.0 ms: 10 orders/s");
        return new RunResult("Load test, preset smoke", "smoke", "2026-11-22T08:00:00Z", "loadtest/bin/loadtest --preset smoke", "local stack", "2 CPUs",
                load, window, new CheckResult(true, 3, 100, 60, 40, 0, 0, 0, List.of(), 0), sla, null, List.of(), List.of("a note"));
    }

    @Test
    void theSummarySaysHowCloselyTheWindowPlacesTheTickerToFillRatio() {
        Histogram floor = new Histogram(3);
        Histogram fills = new Histogram(3);
        for (int i = 1; i <= 1000; i++) {
            floor.recordValue(i);
            fills.recordValue(i * 2L);
        }
        MeasureResult floorRow = new MeasureResult("floor LOCAL_QUORUM write @us-east-1", MeasureResult.CLIENT, "us-east-1", false,
                LatencySummary.of(floor), 1.0, 1.0, null, null, null);
        MeasureResult fillRow = new MeasureResult("ticker-to-fill @us-east-1", MeasureResult.BROKER_EXACT, "us-east-1", false,
                LatencySummary.of(fills), 1.5, 1.5, null, null, null);
        WindowResult window = new WindowResult(90, new Throughput(10, 10, 10, 0, 2, 40, 40, 6, 6, 5), List.of(floorRow, fillRow), Map.of(),
                List.of(), 0, true);
        RunResult base = sample();
        String md = MarkdownReport.render(new RunResult(base.title(), base.preset(), base.startedAt(), base.command(), base.target(), base.machine(),
                base.load(), window, base.check(), null, null, List.of(), List.of()));

        // p99s 1.98 and 0.990 ms; their 95 % bounds the 983rd and the 998th of 1,000: 1.966-1.996 and 0.983-0.998 ms
        assertThat(md).contains("Ticker-to-fill p99 / floor p99: 2.00x.");
        assertThat(md).contains("ticker-to-fill's own p99 lies within 1.97-2.00 ms (1000 fills) and the floor's within 0.98-1.00 ms (1000 writes)");
        assertThat(md).contains("so their ratio lies between 1.97x and 2.03x");
        assertThat(MarkdownReport.render(sample())).doesNotContain("Ticker-to-fill p99 / floor p99");
    }

    @Test
    void theSummaryHasTheLatencyTableWithRatiosTheErrorsTheCheckAndTheSlaSteps() {
        String md = MarkdownReport.render(sample());

        assertThat(md).contains("| measure | count | p50 | p90 | p99 | p99.9 | max | p50 / floor p50 | p99 / floor p99 | RTT | p50 / RTT | p99 / RTT |");
        assertThat(md).contains("| market @ap-southeast-2 cross-region | 1000 | ");
        assertThat(md).contains("| 95.00x | 40.00x | 230.0 | 1.05x | 1.09x |");
        assertThat(md).contains("| MARKET: HTTP 422 Unsupported order | 5 |");
        assertThat(md).contains("### Correctness check: PASSED");
        assertThat(md).contains("| 2 | 20 | 80 | 19 | 12 | 120 | <= 15.0 | 0.0% | p99 ticker-to-fill 15.0 ms >= SLA 10.0 ms |");
        assertThat(md).contains("bucket upper bounds");
    }

    @Test
    void aCrossRegionMarketOrderIsSetAgainstTheBareRoundTripIntoTheRegionItExecutesIn() {
        Histogram bare = new Histogram(3);
        Histogram ownRegion = new Histogram(3);
        for (int i = 1; i <= 100; i++) {
            bare.recordValue(232_000);
            ownRegion.recordValue(300_000);
        }
        RunResult r = sample();
        // the order placed in ap-southeast-2 executes in us-east-1: the round trip into us-east-1 is its floor, not its own region's
        List<MeasureResult> rows = new java.util.ArrayList<>(r.window().measures());
        rows.add(new MeasureResult("WAN round trip, bare TCP @us-east-1", MeasureResult.CLIENT, "us-east-1", false, LatencySummary.of(bare),
                null, null, 230.0, 1.01, 1.01));
        rows.add(new MeasureResult("WAN round trip, bare TCP @ap-southeast-2", MeasureResult.CLIENT, "ap-southeast-2", false,
                LatencySummary.of(ownRegion), null, null, 230.0, 1.3, 1.3));
        WindowResult w = r.window();
        RunResult withBare = new RunResult(r.title(), r.preset(), r.startedAt(), r.command(), r.target(), r.machine(), r.load(),
                new WindowResult(w.seconds(), w.throughput(), rows, w.errors(), w.timeline(), w.generatorLagMillis(), w.brokerScrapeComplete()),
                r.check(), r.sla(), null, List.of(), r.notes());

        double marketP50 = LatencySummary.of(sampleMarket()).p50();
        double bareP50 = LatencySummary.of(bare).p50();
        assertThat(MarkdownReport.render(withBare)).contains(String.format(java.util.Locale.ROOT,
                "Cross-region MARKET p50: @ap-southeast-2 %.1f ms beyond the bare round trip (p50 %.1f ms), %.1f ms beyond the configured 230 ms",
                marketP50 - bareP50, bareP50, marketP50 - 230.0));
        assertThat(MarkdownReport.render(sample())).doesNotContain("beyond the bare round trip");
    }

    @Test
    void theWriteAmplificationTableIsRenderedWhenSet() {
        ResultTable wa = new ResultTable("Write amplification per DC", "DC", List.of("client mutations", "replica writes", "factor"),
                List.of(new ResultTable.Row("us-east-1", List.of("1000", "4100", "4.1")), new ResultTable.Row("ap-southeast-2", List.of("0", "2000", "-"))),
                "measured from each node's metrics");
        RunResult r = sample().withWriteAmplification(wa);

        assertThat(MarkdownReport.render(r)).contains("### Write amplification per DC", "| DC | client mutations | replica writes | factor |",
                "| us-east-1 | 1000 | 4100 | 4.1 |");
        assertThat(HtmlReport.render(r)).contains("<td>ap-southeast-2</td>");
        assertThat(JsonReport.read(JsonReport.render(r)).writeAmplification()).isEqualTo(wa);
    }

    @Test
    void aTableRowMustFillEveryColumn() {
        assertThatThrownBy(() -> new ResultTable("t", "DC", List.of("a", "b"), List.of(new ResultTable.Row("x", List.of("1"))), ""))
                .hasMessageContaining("has 1 values for 2 columns");
    }

    @Test
    void theJsonReadsBackToTheSameResult() {
        RunResult r = sample();

        String json = JsonReport.render(r);

        assertThat(JsonReport.read(json)).isEqualTo(r);
        assertThat(json).contains("\"p99VsFloor\" : 40.0", "\"upperBounds\" : false");
    }

    @Test
    void theHtmlIsOneSelfContainedFileWithSvgCharts() {
        String html = HtmlReport.render(sample());

        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg", "<path d=\"M", "throughput over time", "latency by percentile");
        assertThat(html).doesNotContain("<script", "<link", "src=\"http", "href=\"http", "@import");
        assertThat(html.replace("http://www.w3.org/2000/svg", "")).doesNotContain("http://", "https://");
        assertThat(html).contains("<td>market @ap-southeast-2 cross-region</td>");
    }

    @Test
    void theNinesScalePutsEachNineOneStepFurther() {
        assertThat(SvgCharts.nines(0)).isZero();
        assertThat(SvgCharts.nines(90)).isEqualTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(SvgCharts.nines(99.9)).isEqualTo(3.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(SvgCharts.nines(100)).isEqualTo(5);
        assertThat(SvgCharts.niceCeiling(37)).isEqualTo(50);
    }

    @Test
    void theFilesGoToTheResultsDirectory(@TempDir Path dir) throws Exception {
        ResultsDirectory.write(dir.resolve("run"), sample());

        assertThat(Files.readString(dir.resolve("run/summary.md"))).contains("## Load test, preset smoke");
        assertThat(dir.resolve("run/results.json")).exists();
        assertThat(dir.resolve("run/report.html")).exists();
        assertThat(ResultsDirectory.timestamped(Path.of("x")).getFileName().toString()).matches("\\d{8}-\\d{6}");
    }
}
