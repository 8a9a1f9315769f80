package org.brokerapp.loadtest.measure;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.brokerapp.loadtest.prometheus.PrometheusHistogram;
import org.junit.jupiter.api.Test;

class LatencySummaryTests {

    @Test
    void percentilesAreInMillisecondsFromMicroseconds() {
        Histogram h = new Histogram(3);
        for (int i = 1; i <= 100; i++) {
            h.recordValue(i * 1000L);
        }
        LatencySummary s = LatencySummary.of(h);

        assertThat(s.count()).isEqualTo(100);
        assertThat(s.p50()).isEqualTo(50.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(s.p99()).isEqualTo(99.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(s.max()).isEqualTo(100.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(s.upperBounds()).isFalse();
        assertThat(s.curve()).isNotEmpty().allSatisfy(p -> assertThat(p.millis()).isPositive());
    }

    @Test
    void theP99IsBoundedByTheRanksItCouldHaveHadInAnotherWindow() {
        // of 750 samples the p99 is the 8th slowest; the distribution's own lies between the 14th and the 2nd slowest
        assertThat(LatencySummary.p99Ranks(750)).containsExactly(737, 749);
        assertThat(LatencySummary.p99Ranks(20)).containsExactly(18, 20);
        Histogram h = new Histogram(3);
        for (int i = 1; i <= 1000; i++) {
            h.recordValue(i * 1000L);
        }
        LatencySummary s = LatencySummary.of(h);

        assertThat(s.p99Low()).isEqualTo(983.0, org.assertj.core.data.Offset.offset(1.0));
        assertThat(s.p99High()).isEqualTo(998.0, org.assertj.core.data.Offset.offset(1.0));
        assertThat(s.p99Low()).isLessThan(s.p99()).isPositive();
        assertThat(s.p99High()).isGreaterThan(s.p99());
    }

    @Test
    void brokerBucketsGiveUpperBoundsAndNoMax() {
        PrometheusHistogram buckets = PrometheusHistogram.parse("""
                h_bucket{region="r",le="0.001"} 50
                h_bucket{region="r",le="0.01"} 99
                h_bucket{region="r",le="+Inf"} 100
                """, "h", "r");
        LatencySummary s = LatencySummary.of(buckets);

        assertThat(s.upperBounds()).isTrue();
        assertThat(s.p50()).isEqualTo(1.0);
        assertThat(s.p99()).isEqualTo(10.0);
        assertThat(s.p999()).isEqualTo(-1); // beyond the largest finite bucket
        assertThat(s.max()).isEqualTo(-1);
        assertThat(s.p99Low()).isEqualTo(-1);
        assertThat(s.p99High()).isEqualTo(-1);
    }

    @Test
    void ratiosAreRoundedAndUnknownWhenTheReferenceIs() {
        assertThat(Ratios.of(30, 10)).isEqualTo(3.0);
        assertThat(Ratios.of(1, 3)).isEqualTo(0.33);
        assertThat(Ratios.of(5, 0)).isNull();
        assertThat(Ratios.of(-1, 10)).isNull();
        assertThat(Ratios.of(Double.POSITIVE_INFINITY, 10)).isNull();
    }

    @Test
    void measureNamesCarryRegionAndLocality() {
        assertThat(Measures.regionOf(Measures.market("ap-southeast-2", true))).isEqualTo("ap-southeast-2");
        assertThat(Measures.isCrossRegion(Measures.market("ap-southeast-2", true))).isTrue();
        assertThat(Measures.isCrossRegion(Measures.placement("us-east-1", false))).isFalse();
        assertThat(Measures.regionOf(Measures.floor("us-east-1"))).isEqualTo("us-east-1");
    }

    @Test
    void errorKindsCountAndSubtract() {
        ErrorKinds kinds = new ErrorKinds();
        kinds.count("a");
        var before = kinds.snapshot();
        kinds.count("a");
        kinds.count("b");

        assertThat(kinds.total()).isEqualTo(3);
        assertThat(ErrorKinds.difference(kinds.snapshot(), before)).containsEntry("a", 1L).containsEntry("b", 1L);
        assertThat(ErrorKinds.ofThrowable(new java.util.concurrent.CompletionException(new java.net.http.HttpTimeoutException("t")))).isEqualTo("timeout");
        assertThat(ErrorKinds.ofThrowable(new java.util.concurrent.CompletionException(new java.io.UncheckedIOException(
                new java.net.SocketTimeoutException("read timed out"))))).as("the order client's timeout").isEqualTo("timeout");
        assertThat(ErrorKinds.ofThrowable(new java.util.concurrent.CompletionException(new java.io.UncheckedIOException(
                new java.net.ConnectException("refused"))))).isEqualTo("connection refused");
    }
}
