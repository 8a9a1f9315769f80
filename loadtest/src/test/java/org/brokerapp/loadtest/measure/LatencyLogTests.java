package org.brokerapp.loadtest.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness's interval logs are what HdrHistogram's own reader reads back: every interval, its samples, its tag. */
class LatencyLogTests {

    @TempDir
    Path directory;

    @Test
    void eachMeasuresIntervalsComeBackWithTheirSamplesAndPhase() throws IOException {
        try (LatencyLog log = new LatencyLog(directory)) {
            log.append(Map.of("placement @us-east-1 local", samples(1_000, 5)), "warm-up-300ops");
            log.append(Map.of("placement @us-east-1 local", samples(2_000, 7), "market @ap-southeast-2 cross-region", samples(250_000, 2)),
                    "measured-300ops");
        }

        List<EncodableHistogram> placement = read(directory.resolve("placement__us-east-1_local.hlog"));
        assertThat(placement).extracting(EncodableHistogram::getTag).containsExactly("warm-up-300ops", "measured-300ops");
        assertThat(placement).extracting(h -> ((Histogram) h).getTotalCount()).containsExactly(5L, 7L);
        assertThat(((Histogram) placement.get(1)).getValueAtPercentile(50)).isBetween(1_999L, 2_001L);
        assertThat(read(directory.resolve(LatencyLog.fileName("market @ap-southeast-2 cross-region")))).hasSize(1);
    }

    private static Histogram samples(long micros, int count) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(micros, count);
        h.setStartTimeStamp(System.currentTimeMillis());
        h.setEndTimeStamp(System.currentTimeMillis() + 1_000);
        return h;
    }

    private static List<EncodableHistogram> read(Path file) throws IOException {
        List<EncodableHistogram> intervals = new ArrayList<>();
        HistogramLogReader reader = new HistogramLogReader(file.toFile());
        for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
            intervals.add(h);
        }
        return intervals;
    }
}
