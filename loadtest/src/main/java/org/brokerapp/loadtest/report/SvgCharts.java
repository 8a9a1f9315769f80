package org.brokerapp.loadtest.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.brokerapp.loadtest.measure.LatencySummary;

/**
 * Inline SVG charts drawn here, so the HTML report needs nothing from the network: a latency by
 * percentile chart (x: percentile on the usual "nines" scale, y: latency, log scale) and a
 * rates-over-time chart.
 */
public final class SvgCharts {

    static final int WIDTH = 760;
    static final int HEIGHT = 320;
    static final int LEFT = 70;
    static final int RIGHT = 190;
    static final int TOP = 20;
    static final int BOTTOM = 40;
    static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

    /** A named line of (x, y) points. */
    public record Series(String name, List<double[]> points) {
    }

    private SvgCharts() {
    }

    /** x of a percentile on the nines scale: 0 -> 0, 90 -> 1, 99 -> 2, 99.9 -> 3 ... capped at 5 (100 is drawn at 5). */
    static double nines(double percentile) {
        if (percentile >= 100) {
            return 5;
        }
        return Math.min(5, -Math.log10(1 - percentile / 100));
    }

    public static String percentileChart(List<String> names, List<LatencySummary> summaries) {
        List<Series> series = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            List<double[]> points = new ArrayList<>();
            for (LatencySummary.Point p : summaries.get(i).curve()) {
                if (p.millis() > 0) {
                    points.add(new double[] {nines(p.percentile()), p.millis()});
                }
            }
            if (!points.isEmpty()) {
                series.add(new Series(names.get(i), points));
            }
        }
        if (series.isEmpty()) {
            return "<p>no latency samples</p>";
        }
        double min = series.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[1]).min().orElse(1);
        double max = series.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[1]).max().orElse(1);
        double lo = Math.floor(Math.log10(Math.max(min, 0.001)));
        double hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(max, 0.001))));
        StringBuilder svg = open("latency by percentile");
        double maxX = series.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[0]).max().orElse(3);
        double xMax = Math.max(2, Math.ceil(maxX));
        String[] labels = {"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"};
        for (int k = 0; k <= xMax; k++) {
            double x = x(k, xMax);
            svg.append(line(x, TOP, x, HEIGHT - BOTTOM, "#ddd")).append(text(x, HEIGHT - BOTTOM + 16, labels[k], "middle"));
        }
        for (double e = lo; e <= hi; e++) {
            double y = yLog(e, lo, hi);
            svg.append(line(LEFT, y, WIDTH - RIGHT, y, "#ddd")).append(text(LEFT - 6, y + 4, label(Math.pow(10, e)) + " ms", "end"));
        }
        svg.append(text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 6, "percentile", "middle"));
        for (int i = 0; i < series.size(); i++) {
            StringBuilder path = new StringBuilder();
            for (double[] p : series.get(i).points()) {
                path.append(path.length() == 0 ? "M" : " L").append(fmt(x(p[0], xMax))).append(',').append(fmt(yLog(Math.log10(p[1]), lo, hi)));
            }
            svg.append(path(path.toString(), COLOURS[i % COLOURS.length]));
            svg.append(legend(i, series.get(i).name()));
        }
        return svg.append("</svg>").toString();
    }

    public static String timeChart(String title, List<Series> series, String unit) {
        List<Series> drawn = series.stream().filter(s -> !s.points().isEmpty()).toList();
        if (drawn.isEmpty()) {
            return "<p>no samples</p>";
        }
        double xMax = Math.max(1, drawn.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[0]).max().orElse(1));
        double yMax = niceCeiling(drawn.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[1]).max().orElse(1));
        StringBuilder svg = open(title);
        for (int k = 0; k <= 4; k++) {
            double v = yMax * k / 4;
            double y = HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * k / 4.0;
            svg.append(line(LEFT, y, WIDTH - RIGHT, y, "#ddd")).append(text(LEFT - 6, y + 4, label(v), "end"));
        }
        for (int k = 0; k <= 5; k++) {
            double v = xMax * k / 5;
            double x = LEFT + (WIDTH - LEFT - RIGHT) * k / 5.0;
            svg.append(line(x, TOP, x, HEIGHT - BOTTOM, "#eee")).append(text(x, HEIGHT - BOTTOM + 16, label(v) + " s", "middle"));
        }
        svg.append(text(LEFT - 50, TOP - 6, unit, "start"));
        for (int i = 0; i < drawn.size(); i++) {
            StringBuilder path = new StringBuilder();
            for (double[] p : drawn.get(i).points()) {
                double x = LEFT + (WIDTH - LEFT - RIGHT) * p[0] / xMax;
                double y = HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * Math.max(0, p[1]) / yMax;
                path.append(path.length() == 0 ? "M" : " L").append(fmt(x)).append(',').append(fmt(y));
            }
            svg.append(path(path.toString(), COLOURS[i % COLOURS.length]));
            svg.append(legend(i, drawn.get(i).name()));
        }
        return svg.append("</svg>").toString();
    }

    static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= v) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static StringBuilder open(String title) {
        return new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\" "
                        + "font-family=\"sans-serif\" font-size=\"11\"><rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>"
                        + "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>",
                WIDTH, HEIGHT, WIDTH, HEIGHT, HtmlReport.escape(title), LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM));
    }

    private static double x(double nines, double xMax) {
        return LEFT + (WIDTH - LEFT - RIGHT) * nines / xMax;
    }

    private static double yLog(double log10, double lo, double hi) {
        return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * (log10 - lo) / (hi - lo);
    }

    private static String legend(int i, String name) {
        double y = TOP + 12 + i * 16;
        return line(WIDTH - RIGHT + 10, y - 4, WIDTH - RIGHT + 28, y - 4, COLOURS[i % COLOURS.length]).replace("stroke-width=\"1\"", "stroke-width=\"3\"")
                + text(WIDTH - RIGHT + 32, y, name, "start");
    }

    private static String line(double x1, double y1, double x2, double y2, String colour) {
        return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1\"/>", x1, y1, x2, y2, colour);
    }

    private static String path(String d, String colour) {
        return "<path d=\"" + d + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"2\"/>";
    }

    private static String text(double x, double y, String s, String anchor) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>", x, y, anchor, HtmlReport.escape(s));
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static String label(double v) {
        if (v >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (v >= 1 || v == 0) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return String.format(Locale.ROOT, "%s", Double.toString(Math.round(v * 1000) / 1000.0));
    }
}
