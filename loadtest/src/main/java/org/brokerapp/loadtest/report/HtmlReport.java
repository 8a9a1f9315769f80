package org.brokerapp.loadtest.report;

import java.util.ArrayList;
import java.util.List;

import org.brokerapp.loadtest.measure.LatencySummary;

/**
 * The run as one self-contained HTML file ({@code report.html}): the summary tables and inline SVG
 * charts, no script, no stylesheet or font from the network, so it opens offline and can be mailed.
 */
public final class HtmlReport {

    private HtmlReport() {
    }

    public static String render(RunResult r) {
        StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(escape(r.title())).append("</title><style>")
                .append("body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}")
                .append("table{border-collapse:collapse;margin:1em 0;font-size:13px}td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}")
                .append("td:first-child,th:first-child{text-align:left}code{background:#f4f4f4;padding:1px 4px}.fail{color:#b00}.pass{color:#080}")
                .append("</style></head><body>\n");
        html.append(MarkdownHtml.toHtml(MarkdownReport.render(r)));
        WindowResult w = r.window();
        html.append("<h3>Latency by percentile (client measures, and the brokers' own histograms)</h3>\n");
        List<String> names = new ArrayList<>();
        List<LatencySummary> summaries = new ArrayList<>();
        for (MeasureResult m : w.measures()) {
            if (!m.latency().noSamples()) {
                names.add(m.name());
                summaries.add(m.latency());
            }
        }
        html.append(SvgCharts.percentileChart(names, summaries)).append("\n");
        for (MeasureResult m : w.measures()) {
            if (!m.latency().noSamples()) {
                html.append("<h4>").append(escape(m.name())).append("</h4>\n")
                        .append(SvgCharts.percentileChart(List.of(m.name()), List.of(m.latency()))).append("\n");
            }
        }
        html.append("<h3>Throughput over time (from the start of the load; ramp-up and warm-up included)</h3>\n");
        html.append(SvgCharts.timeChart("throughput over time", List.of(
                series("orders sent/s", w.timeline(), 0), series("orders accepted/s", w.timeline(), 1),
                series("ticks/s", w.timeline(), 2), series("fills/s", w.timeline(), 3), series("errors/s", w.timeline(), 4)), "per second"));
        html.append("\n</body></html>\n");
        return html.toString();
    }

    private static SvgCharts.Series series(String name, List<TimelinePoint> timeline, int field) {
        List<double[]> points = new ArrayList<>();
        for (TimelinePoint p : timeline) {
            double v = switch (field) {
                case 0 -> p.ordersSent();
                case 1 -> p.ordersAccepted();
                case 2 -> p.ticks();
                case 3 -> p.fills();
                default -> p.errors();
            };
            if (v >= 0) {
                points.add(new double[] {p.seconds(), v});
            }
        }
        return new SvgCharts.Series(name, points);
    }

    static String escape(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
