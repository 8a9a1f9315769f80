package org.brokerapp.loadtest.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

import org.brokerapp.loadtest.check.CheckResult;
import org.brokerapp.loadtest.measure.LatencySummary;
import org.brokerapp.loadtest.measure.Measures;
import org.brokerapp.loadtest.measure.Ratios;
import org.brokerapp.loadtest.probe.ResultTable;

/** The run's summary as markdown tables: printed at the end of a run and saved as {@code summary.md}. */
public final class MarkdownReport {

    private MarkdownReport() {
    }

    public static String render(RunResult r) {
        StringBuilder md = new StringBuilder();
        md.append("## ").append(r.title()).append("\n\n");
        md.append("- started: ").append(r.startedAt()).append("\n");
        md.append("- command: `").append(r.command()).append("`\n");
        md.append("- target: ").append(r.target()).append("\n");
        md.append("- machine: ").append(r.machine()).append("\n");
        md.append("- load: ");
        md.append(String.join(", ", r.load().entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList())).append("\n\n");
        if (r.sla() != null) {
            sla(md, r.sla());
        }
        WindowResult w = r.window();
        Throughput t = w.throughput();
        md.append(String.format(Locale.ROOT, "### Throughput (%.0f s measured)%n%n", w.seconds()));
        md.append("| rate per second | target | achieved |\n|---|---|---|\n");
        md.append("| orders sent | ").append(Format.rate(t.targetOrders())).append(" | ").append(Format.rate(t.ordersSent())).append(" |\n");
        md.append("| orders accepted (answers in the window) | | ").append(Format.rate(t.ordersAccepted())).append(" |\n");
        md.append("| orders failed (answers in the window) | | ").append(Format.rate(t.ordersFailed())).append(" |\n");
        md.append("| MARKET orders filled | | ").append(Format.rate(t.marketFilled())).append(" |\n");
        md.append("| ticks | ").append(Format.rate(t.targetTicks())).append(" | ").append(Format.rate(t.ticks())).append(" |\n");
        md.append("| fills (brokers' counters) | ~").append(Format.rate(t.expectedTrades())).append(" | ").append(Format.rate(t.fills())).append(" |\n");
        md.append("| floor writes | | ").append(Format.rate(t.floorWrites())).append(" |\n\n");
        md.append("### Latency (ms)\n\n");
        md.append("| measure | count | p50 | p90 | p99 | p99.9 | max | p50 / floor p50 | p99 / floor p99 | RTT | p50 / RTT | p99 / RTT |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (MeasureResult m : w.measures()) {
            boolean ub = m.latency().upperBounds();
            md.append("| ").append(m.name()).append(" | ").append(m.latency().count())
                    .append(" | ").append(Format.ms(m.latency().noSamples() ? -1 : m.latency().p50(), ub))
                    .append(" | ").append(Format.ms(m.latency().noSamples() ? -1 : m.latency().p90(), ub))
                    .append(" | ").append(Format.ms(m.latency().noSamples() ? -1 : m.latency().p99(), ub))
                    .append(" | ").append(Format.ms(m.latency().noSamples() ? -1 : m.latency().p999(), ub))
                    .append(" | ").append(Format.ms(m.latency().noSamples() ? -1 : m.latency().max(), false))
                    .append(" | ").append(Format.ratio(m.p50VsFloor())).append(" | ").append(Format.ratio(m.p99VsFloor()))
                    .append(" | ").append(m.rttMillis() == null ? "-" : Format.ms(m.rttMillis(), false))
                    .append(" | ").append(Format.ratio(m.p50VsRtt())).append(" | ").append(Format.ratio(m.p99VsRtt())).append(" |\n");
        }
        boolean exact = w.measures().stream().anyMatch(m -> MeasureResult.BROKER_EXACT.equals(m.source()));
        md.append("\nClient measures are HdrHistogram from each operation's intended start (coordinated omission corrected) to its answer's last byte. "
                + (exact
                ? "Ticker-to-fill (tick event time = the tick's intended send time, to fill durable) and receipt-to-fill (the broker's receipt "
                + "of the tick to fill durable) are the brokers' own HdrHistograms (/actuator/latency, 3 significant digits), snapshots taken "
                + "before and after the window and subtracted: exact percentiles and max, within 0.1 %. So are a filled tick's three legs, which add up "
                + "to its ticker-to-fill: tick-to-receipt (its event time to the broker's receipt: the feed's send and Kafka's delivery), "
                + "receipt-to-decision (the wait for the matcher's turn and the match) and decision-to-fill (the fill's ledger write); "
                + "tick produced is the harness's own (a tick's intended send to Kafka's acknowledgement, every tick). So are order-request (a POST /api/orders "
                + "as the broker it was sent to served it, first filter to answer; -to-controller: until the controller has the order), owner-placement (a LIMIT/STOP placement at the customer's "
                + "owner, reservation to answer) and its two durable steps (its ledger and open_orders rows, one batch; its event), each from their sending; "
                + "so is market-refused-request (a MARKET POST /api/orders answered 503 because its home region could not be reached, first filter to answer); "
                + "and, for a MARKET order executed in another region, market-routed-request (at the broker it was sent to, first filter to answer), "
                + "market-routed-call (the owner's call to the executing region, signing to answer), market-execution-request (that call at the executing "
                + "broker, first filter to answer) and market-fill-row (the FILLED row's write where it executes, local MARKET orders too). "
                : "Ticker-to-fill is the brokers' own histogram (tick event time = the tick's intended send time, to fill durable), "
                + "scraped before and after the window: its percentiles are bucket upper bounds (<=, buckets ~10 % apart), its max unknown. ")
                + "Ratios are to the bare LOCAL_QUORUM write of the same region, timed in the same window; RTT is the emulated WAN round trip "
                + "a cross-region request crosses.\n");
        beyondTheRoundTrip(w).ifPresent(md::append);
        tickerToFillSpread(w).ifPresent(md::append);
        if (!w.brokerScrapeComplete()) {
            md.append("\n**A broker did not answer a before/after scrape in time: its ticker-to-fill is missing.**\n");
        }
        md.append("\n### Errors in the window: ").append(w.errorCount()).append("\n\n");
        if (!w.errors().isEmpty()) {
            md.append("| kind | count |\n|---|---|\n");
            for (Map.Entry<String, Long> e : w.errors().entrySet()) {
                md.append("| ").append(e.getKey()).append(" | ").append(e.getValue()).append(" |\n");
            }
            md.append("\n");
        }
        md.append("Load generator's own worst lag behind schedule: ").append(w.generatorLagMillis()).append(" ms\n\n");
        check(md, r.check());
        if (r.writeAmplification() != null) {
            table(md, r.writeAmplification());
        }
        r.tables().forEach(table -> table(md, table));
        if (!r.notes().isEmpty()) {
            md.append("### Notes\n\n");
            r.notes().forEach(n -> md.append("- ").append(n).append("\n"));
            md.append("\n");
        }
        return md.toString();
    }

    private static void sla(StringBuilder md, SlaResult sla) {
        md.append(String.format(Locale.ROOT, "### SLA search: p99 ticker-to-fill < %.1f ms%n%n", sla.slaMillis()));
        md.append("| step | orders/s target | ticks/s | orders/s accepted | fills/s | fills measured | p99 ticker-to-fill (ms) | errors | verdict |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (SlaResult.Step s : sla.steps()) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %d | %s | %.1f%% | %s |%n", s.step(), Format.rate(s.ordersPerSecond()),
                    Format.rate(s.ticksPerSecond()), Format.rate(s.achievedOrdersPerSecond()), Format.rate(s.fillsPerSecond()),
                    s.tickToFillCount(), Format.ms(s.tickToFillP99Millis(), true), s.errorShare() * 100, s.reason()));
        }
        md.append("\n**").append(sla.verdict()).append("**\n\n");
    }

    private static void check(StringBuilder md, CheckResult c) {
        md.append("### Correctness check: ").append(c.passed() ? "PASSED" : "FAILED").append("\n\n");
        md.append(String.format(Locale.ROOT, "%d customers, %d accepted orders of this run; their ledgers: %d FILLED, %d OPEN, %d CANCELLED, %d EXPIRED; "
                        + "%d marketable LIMIT/STOP orders still open after the drain%n%n", c.customers(), c.accepted(), c.filled(), c.open(),
                c.cancelled(), c.expired(), c.marketableStillOpen()));
        if (c.problemCount() > 0) {
            md.append(c.problemCount()).append(" problems").append(c.problemCount() > c.problems().size() ? ", the first " + c.problems().size() : "")
                    .append(":\n\n");
            c.problems().forEach(p -> md.append("- ").append(p).append("\n"));
            md.append("\n");
        }
    }

    static void table(StringBuilder md, ResultTable table) {
        md.append("### ").append(table.title()).append("\n\n").append(tableBody(table)).append("\n");
    }

    /** A result table as markdown without its heading: the columns, the rows, then its note if any. */
    public static String tableBody(ResultTable table) {
        StringBuilder md = new StringBuilder("| ").append(table.labelHeading());
        table.columns().forEach(c -> md.append(" | ").append(c));
        md.append(" |\n|---");
        table.columns().forEach(c -> md.append("|---"));
        md.append("|\n");
        for (ResultTable.Row row : table.rows()) {
            md.append("| ").append(row.label());
            row.values().forEach(v -> md.append(" | ").append(v));
            md.append(" |\n");
        }
        if (table.note() != null && !table.note().isBlank()) {
            md.append("\n").append(table.note()).append("\n");
        }
        return md.toString();
    }

    /**
     * How closely one window places ticker-to-fill's p99 against the floor's: each p99 is an order statistic of one
     * window's samples (of 750 fills, the 8th slowest), so the ratio of the distributions' own p99s lies anywhere
     * between the two p99s' 95 % bounds, crossed.
     */
    private static Optional<String> tickerToFillSpread(WindowResult w) {
        Optional<LatencySummary> fills = w.acrossRegions(Measures.TICKER_TO_FILL).map(MeasureResult::latency);
        Optional<LatencySummary> floor = w.acrossRegions(Measures.FLOOR).map(MeasureResult::latency);
        if (fills.isEmpty() || floor.isEmpty() || fills.get().p99Low() <= 0 || floor.get().p99Low() <= 0) {
            return Optional.empty();
        }
        LatencySummary t = fills.get();
        LatencySummary f = floor.get();
        return Optional.of(String.format(Locale.ROOT, "%nTicker-to-fill p99 / floor p99: %s. A window's p99 is a sample: with 95 %% "
                        + "confidence, ticker-to-fill's own p99 lies within %s-%s ms (%d fills) and the floor's within %s-%s ms (%d writes), "
                        + "so their ratio lies between %s and %s. A longer window narrows both.%n",
                Format.ratio(Ratios.of(t.p99(), f.p99())), Format.ms(t.p99Low(), false), Format.ms(t.p99High(), false), t.count(),
                Format.ms(f.p99Low(), false), Format.ms(f.p99High(), false), f.count(),
                Format.ratio(Ratios.of(t.p99Low(), f.p99High())), Format.ratio(Ratios.of(t.p99High(), f.p99Low()))));
    }

    /**
     * Each cross-region MARKET p50 beyond the round trip: the configured one, and the bare round trip timed beside the
     * load into the regions it executes in (the longest of theirs), when the run timed one.
     */
    private static Optional<String> beyondTheRoundTrip(WindowResult w) {
        Map<String, Double> wanFloors = new TreeMap<>();
        w.measures().stream().filter(m -> m.name().startsWith(Measures.WAN_FLOOR) && !m.latency().noSamples())
                .forEach(m -> wanFloors.put(m.region(), m.latency().p50()));
        List<String> parts = new ArrayList<>();
        for (MeasureResult m : w.measures()) {
            if (!m.name().startsWith(Measures.MARKET) || !m.crossRegion() || m.latency().noSamples() || m.rttMillis() == null) {
                continue;
            }
            OptionalDouble bare = wanFloors.entrySet().stream().filter(e -> !e.getKey().equals(m.region())).mapToDouble(Map.Entry::getValue).max();
            if (bare.isPresent()) {
                parts.add(String.format(Locale.ROOT, "@%s %.1f ms beyond the bare round trip (p50 %.1f ms), %.1f ms beyond the configured %.0f ms",
                        m.region(), m.latency().p50() - bare.getAsDouble(), bare.getAsDouble(), m.latency().p50() - m.rttMillis(), m.rttMillis()));
            }
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of("\nCross-region MARKET p50: " + String.join("; ", parts) + ". The bare round trip is a "
                + "64-byte TCP echo across the emulated WAN every 500 ms, into each region, timed beside the load (" + Measures.WAN_FLOOR + " rows): "
                + "the emulator runs on the same cores and costs each crossing time of its own.\n");
    }
}
