package org.brokerapp.loadtest.measure;

import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * A run's client-side latencies as HdrHistogram interval logs, one {@code <measure>.hlog} per
 * measure beside the report, written as the run goes (a run that dies leaves what it measured).
 * Each interval is tagged with its phase ({@code ramp-up}, {@code warm-up}, {@code measured}) and
 * the order rate of its level, so the standard tools (HistogramLogProcessor, HdrHistogram's
 * plotters) can pick the measured window: {@code java -cp HdrHistogram.jar
 * org.HdrHistogram.HistogramLogProcessor -i placement.hlog -tag measured-300ops}.
 */
public final class LatencyLog implements AutoCloseable {

    private final Path directory;
    private final long startMillis = System.currentTimeMillis();
    private final Map<String, HistogramLogWriter> writers = new TreeMap<>();

    public LatencyLog(Path directory) {
        this.directory = directory;
    }

    /** One interval of every measure, each tagged {@code tag} (no spaces or commas). */
    public synchronized void append(Map<String, Histogram> interval, String tag) {
        interval.forEach((measure, histogram) -> {
            Histogram tagged = histogram.copy();
            tagged.setStartTimeStamp(histogram.getStartTimeStamp());
            tagged.setEndTimeStamp(histogram.getEndTimeStamp());
            tagged.setTag(tag);
            writer(measure).outputIntervalHistogram(tagged);
        });
    }

    /** The file a measure's intervals go to: its name, with anything but letters, digits, '.', '-' and '_' as '_'. */
    public static String fileName(String measure) {
        return measure.replaceAll("[^A-Za-z0-9._-]", "_") + ".hlog";
    }

    private HistogramLogWriter writer(String measure) {
        return writers.computeIfAbsent(measure, m -> {
            try {
                directory.toFile().mkdirs();
                HistogramLogWriter writer = new HistogramLogWriter(directory.resolve(fileName(m)).toFile());
                writer.outputComment("client-side latency of '" + m + "' in microseconds, from each operation's intended start");
                writer.outputLogFormatVersion();
                writer.setBaseTime(startMillis);
                writer.outputStartTime(startMillis);
                writer.outputBaseTime(startMillis);
                writer.outputLegend();
                return writer;
            } catch (FileNotFoundException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Override
    public synchronized void close() {
        writers.values().forEach(HistogramLogWriter::close);
        writers.clear();
    }
}
