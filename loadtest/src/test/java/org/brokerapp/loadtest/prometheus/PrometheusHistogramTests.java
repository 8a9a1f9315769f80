package org.brokerapp.loadtest.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrometheusHistogramTests {

    private static final String BEFORE = """
            # TYPE broker_fill_tick_to_fill_seconds histogram
            broker_fill_tick_to_fill_seconds_bucket{application="broker-service",region="us-east-1",le="0.001"} 10
            broker_fill_tick_to_fill_seconds_bucket{application="broker-service",region="us-east-1",le="0.002"} 20
            broker_fill_tick_to_fill_seconds_bucket{application="broker-service",region="us-east-1",le="0.004"} 20
            broker_fill_tick_to_fill_seconds_bucket{application="broker-service",region="us-east-1",le="+Inf"} 20
            broker_fill_tick_to_fill_seconds_bucket{application="broker-service",region="ap-southeast-2",le="+Inf"} 999
            """;

    private static final String AFTER = """
            broker_fill_tick_to_fill_seconds_bucket{application="broker-service",region="us-east-1",le="0.001"} 10
            broker_fill_tick_to_fill_seconds_bucket{application="broker-service",region="us-east-1",le="0.002"} 119
            broker_fill_tick_to_fill_seconds_bucket{application="broker-service",region="us-east-1",le="0.004"} 119
            broker_fill_tick_to_fill_seconds_bucket{application="broker-service",region="us-east-1",le="+Inf"} 120
            """;

    @Test
    void theWindowIsTheDifferenceOfTwoScrapesOfOneRegion() {
        PrometheusHistogram window = PrometheusHistogram.parse(AFTER, "broker_fill_tick_to_fill_seconds", "us-east-1")
                .minus(PrometheusHistogram.parse(BEFORE, "broker_fill_tick_to_fill_seconds", "us-east-1"));

        assertThat(window.count()).isEqualTo(100);
        assertThat(window.percentileMillis(0.5)).isEqualTo(2.0);
        assertThat(window.percentileMillis(0.99)).isEqualTo(2.0);
        assertThat(window.percentileMillis(1.0)).isInfinite();
    }

    @Test
    void anEmptyWindowHasNoPercentile() {
        PrometheusHistogram none = PrometheusHistogram.parse(BEFORE, "broker_fill_tick_to_fill_seconds", "us-east-1")
                .minus(PrometheusHistogram.parse(BEFORE, "broker_fill_tick_to_fill_seconds", "us-east-1"));

        assertThat(none.count()).isZero();
        assertThat(none.percentileMillis(0.99)).isNaN();
    }

    @Test
    void twoRegionsAddUpBucketByBucket() {
        PrometheusHistogram east = PrometheusHistogram.parse(AFTER, "broker_fill_tick_to_fill_seconds", "us-east-1");
        PrometheusHistogram both = east.plus(east);

        assertThat(both.count()).isEqualTo(240);
        assertThat(both.percentileMillis(0.5)).isEqualTo(2.0);
        assertThat(PrometheusHistogram.EMPTY.plus(east)).isEqualTo(east);
    }

    @Test
    void aCounterSumsTheSamplesOfItsRegionAndLabels() {
        String exposition = """
                broker_fills_total{application="broker-service",outcome="filled",region="us-east-1"} 12.0
                broker_fills_total{application="broker-service",outcome="error",region="us-east-1"} 3.0
                broker_fills_total{application="broker-service",outcome="filled",region="ap-southeast-2"} 7.0
                """;

        assertThat(PrometheusHistogram.counter(exposition, "broker_fills_total", "us-east-1", "outcome=\"filled\"")).isEqualTo(12.0);
        assertThat(PrometheusHistogram.counter(exposition, "broker_fills_total", "us-east-1")).isEqualTo(15.0);
    }
}
