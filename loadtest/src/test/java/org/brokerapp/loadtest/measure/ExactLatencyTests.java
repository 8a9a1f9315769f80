package org.brokerapp.loadtest.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.brokerapp.loadtest.prometheus.PrometheusHistogram;
import org.junit.jupiter.api.Test;

class ExactLatencyTests {

    /** What a broker's /actuator/latency answers, built the way LatencyRecorder encodes. */
    static String endpointAnswer(Histogram tickToFill, Histogram receiptToFill) {
        return """
                {"region":"us-east-1","unit":"microseconds","significantDigits":3,"histograms":{
                "tick-to-fill":{"count":%d,"histogram":"%s"},"receipt-to-fill":{"count":%d,"histogram":"%s"}}}
                """.formatted(tickToFill.getTotalCount(), encode(tickToFill), receiptToFill.getTotalCount(), encode(receiptToFill));
    }

    static String encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    static Histogram of(long... micros) {
        Histogram h = new Histogram(3_600_000_000L, 3);
        for (long m : micros) {
            h.recordValue(m);
        }
        return h;
    }

    @Test
    void everyMeasureAnyBrokerHasIsListedOnceInTheBrokersOrder() {
        String withPlacement = endpointAnswer(of(1), of(1)).replace("}}}", "},\"owner-placement\":{\"count\":1,\"histogram\":\"" + encode(of(7_000)) + "\"}}}");
        ExactLatency us = ExactLatency.parse(withPlacement);
        ExactLatency sydney = ExactLatency.parse(endpointAnswer(of(2), of(2)));

        BrokerScraper.Scrape scrape = new BrokerScraper.Scrape(Map.of(), Map.of(), true, Map.of("us-east-1", us, "ap-southeast-2", sydney));

        assertThat(us.measures()).containsExactly(ExactLatency.TICK_TO_FILL, ExactLatency.RECEIPT_TO_FILL, "owner-placement");
        assertThat(scrape.exactMeasures()).containsExactlyInAnyOrder(ExactLatency.TICK_TO_FILL, ExactLatency.RECEIPT_TO_FILL, "owner-placement");
        assertThat(scrape.exact("owner-placement")).containsOnlyKeys("us-east-1");
        assertThat(scrape.exact("owner-placement").get("us-east-1").getMaxValue()).isCloseTo(7_000L, within(7L));
    }

    @Test
    void twoSnapshotsSubtractedHoldExactlyTheWindowsSamples() {
        ExactLatency start = ExactLatency.parse(endpointAnswer(of(900_000, 950_000), of(1_000)));
        ExactLatency end = ExactLatency.parse(endpointAnswer(of(900_000, 950_000, 12_345, 23_456, 34_567), of(1_000, 2_000)));

        Histogram window = end.minus(start).get(ExactLatency.TICK_TO_FILL);

        assertThat(window.getTotalCount()).isEqualTo(3);
        // the window's max is its own (34.567 ms), not the 950 ms recorded before it; 3 significant digits
        assertThat(window.getMaxValue()).isCloseTo(34_567L, within(35L));
        assertThat(window.getValueAtPercentile(50)).isCloseTo(23_456L, within(24L));
        assertThat(end.minus(start).get(ExactLatency.RECEIPT_TO_FILL).getTotalCount()).isEqualTo(1);
    }

    @Test
    void aBrokerRestartedInTheWindowHasNoKnownWindow() {
        ExactLatency start = ExactLatency.parse(endpointAnswer(of(1, 2, 3), of(1)));
        ExactLatency afterRestart = ExactLatency.parse(endpointAnswer(of(4), of(1, 2)));

        ExactLatency window = afterRestart.minus(start);

        assertThat(window.get(ExactLatency.TICK_TO_FILL)).isNull();
        assertThat(window.get(ExactLatency.RECEIPT_TO_FILL).getTotalCount()).isEqualTo(1);
    }

    @Test
    void aBrokerRestartedInTheWindowThatRecordedMoreSinceHasNoKnownWindowEither() {
        ExactLatency start = ExactLatency.parse(endpointAnswer(of(1_000, 2_000, 3_000), of(1)));
        ExactLatency afterRestart = ExactLatency.parse(endpointAnswer(of(4_000, 5_000, 6_000, 7_000), of(1, 2)));

        ExactLatency window = afterRestart.minus(start);

        assertThat(window.get(ExactLatency.TICK_TO_FILL)).isNull();
        assertThat(window.get(ExactLatency.RECEIPT_TO_FILL).getTotalCount()).isEqualTo(1);
    }

    @Test
    void twoInstancesSnapshotsAddUpMeasureByMeasure() {
        ExactLatency first = ExactLatency.parse(endpointAnswer(of(1_000, 2_000), of(5)));
        ExactLatency second = ExactLatency.parse(endpointAnswer(of(3_000_000), of()));

        ExactLatency both = first.plus(second);

        assertThat(both.get(ExactLatency.TICK_TO_FILL).getTotalCount()).isEqualTo(3);
        assertThat(both.get(ExactLatency.TICK_TO_FILL).getMaxValue()).isBetween(2_997_000L, 3_003_000L);
        assertThat(both.get(ExactLatency.RECEIPT_TO_FILL).getTotalCount()).isEqualTo(1);
        assertThat(first.get(ExactLatency.TICK_TO_FILL).getTotalCount()).as("the operands stay as they were").isEqualTo(2);
    }

    @Test
    void theScrapeOfBrokersWithTheEndpointGivesExactRowsAndNoBucketRows() {
        ExactLatency east = ExactLatency.parse(endpointAnswer(of(10_000, 20_000), of(5_000)));
        BrokerScraper.Scrape before = new BrokerScraper.Scrape(Map.of("us-east-1", PrometheusHistogram.EMPTY), Map.of("us-east-1", 0.0), true,
                Map.of("us-east-1", ExactLatency.NONE.minus(ExactLatency.NONE)));
        BrokerScraper.Scrape after = new BrokerScraper.Scrape(Map.of("us-east-1", PrometheusHistogram.EMPTY), Map.of("us-east-1", 2.0), true,
                Map.of("us-east-1", east));

        // a region whose first snapshot had no histograms yet (NONE) has no window either: only regions with both count
        assertThat(after.minus(before).exact(ExactLatency.TICK_TO_FILL)).isEmpty();
        assertThat(after.minus(new BrokerScraper.Scrape(Map.of(), Map.of(), true, Map.of("us-east-1",
                ExactLatency.parse(endpointAnswer(of(), of()))))).exact(ExactLatency.TICK_TO_FILL).get("us-east-1").getTotalCount()).isEqualTo(2);
    }
}
