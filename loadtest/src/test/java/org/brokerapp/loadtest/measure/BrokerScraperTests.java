package org.brokerapp.loadtest.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

class BrokerScraperTests {

    private static final String EXPOSITION = """
            broker_search_indexing_lag_seconds_bucket{region="us-east-1",le="0.1"} 2
            broker_search_indexing_lag_seconds_bucket{region="us-east-1",le="1.0"} 9
            broker_search_indexing_lag_seconds_bucket{region="us-east-1",le="+Inf"} 10
            """;

    @Test
    void theIndexingLagOfAWindowIsTheDifferenceOfTwoScrapesAndARegionWithoutSearchHasNone() {
        PrometheusHistogram now = PrometheusHistogram.parse(EXPOSITION, BrokerScraper.INDEXING_LAG, "us-east-1");
        PrometheusHistogram before = PrometheusHistogram.parse(EXPOSITION.replace("} 9", "} 1").replace("} 10", "} 2"),
                BrokerScraper.INDEXING_LAG, "us-east-1");
        var earlier = new BrokerScraper.Scrape(Map.of(), Map.of(), Map.of("us-east-1", before), true, Map.of());
        var later = new BrokerScraper.Scrape(Map.of(), Map.of(), Map.of("us-east-1", now), true, Map.of());

        var window = later.minus(earlier);

        assertThat(window.indexingLag().get("us-east-1").count()).isEqualTo(8);
        assertThat(window.indexingLag().get("us-east-1").percentileMillis(0.5)).isLessThanOrEqualTo(1_000.0);
        assertThat(new BrokerScraper.Scrape(Map.of(), Map.of(), true).indexingLag()).isEmpty();
        assertThat(Measures.indexingLag("us-east-1")).isEqualTo("indexing lag (durable to searchable) @us-east-1");
    }

    @Test
    void aRegionsInstancesAreWindowedEachAndAddedUpAndOneThatRestartedIsLeftOut() {
        String first = BrokerScraper.instanceKey("us-east-1", 1);
        String second = BrokerScraper.instanceKey("us-east-1", 2);
        String third = BrokerScraper.instanceKey("us-east-1", 3);
        PrometheusHistogram lagNow = PrometheusHistogram.parse(EXPOSITION, BrokerScraper.INDEXING_LAG, "us-east-1");
        var earlier = new BrokerScraper.Scrape(Map.of(first, PrometheusHistogram.EMPTY, second, PrometheusHistogram.EMPTY, third, PrometheusHistogram.EMPTY),
                Map.of(first, 100.0, second, 40.0, third, 500.0), Map.of(first, PrometheusHistogram.EMPTY, second, PrometheusHistogram.EMPTY),
                true, Map.of());
        // the third restarted in between: its counters began again from 0
        var later = new BrokerScraper.Scrape(Map.of(first, PrometheusHistogram.EMPTY, second, PrometheusHistogram.EMPTY, third, PrometheusHistogram.EMPTY),
                Map.of(first, 130.0, second, 50.0, third, 7.0), Map.of(first, lagNow, second, lagNow), true, Map.of());

        var window = later.minus(earlier);

        assertThat(second).isEqualTo("us-east-1 #2");
        assertThat(window.fills()).containsExactly(Map.entry("us-east-1", 40.0));
        assertThat(window.indexingLag().get("us-east-1").count()).isEqualTo(20);
    }
}
