package org.brokerapp.loadtest.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.brokerapp.loadtest.prometheus.PrometheusHistogram;
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

    @Test
    void everyInstanceIsAskedAtOnceAndOneThatFailsLeavesTheOthersRead() throws IOException {
        // each of the first two instances answers only once both were asked: one after the other, the first would time out
        CountDownLatch bothAsked = new CountDownLatch(2);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(threads);
        server.createContext("/a/actuator/prometheus", exchange -> answerWhenBothAsked(exchange, bothAsked, 5));
        server.createContext("/b/actuator/prometheus", exchange -> answerWhenBothAsked(exchange, bothAsked, 7));
        server.createContext("/c/actuator/prometheus", exchange -> answer(exchange, 500, "down"));
        server.createContext("/", exchange -> answer(exchange, 404, "no such endpoint"));
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            BrokerScraper scraper = new BrokerScraper(Map.of("us-east-1", List.of(base + "/a", base + "/b", base + "/c")), Optional.empty());

            BrokerScraper.Scrape scrape = scraper.scrape(Duration.ofSeconds(5));

            assertThat(scrape.fills()).containsExactly(Map.entry("us-east-1", 5.0), Map.entry("us-east-1 #2", 7.0));
            assertThat(scrape.complete()).as("the third instance answered 500").isFalse();
        } finally {
            server.stop(0);
            threads.shutdownNow();
        }
    }

    private static void answerWhenBothAsked(HttpExchange exchange, CountDownLatch bothAsked, int fills) throws IOException {
        bothAsked.countDown();
        try {
            if (!bothAsked.await(10, TimeUnit.SECONDS)) {
                answer(exchange, 503, "asked alone");
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        answer(exchange, 200, "broker_fills_total{region=\"us-east-1\",outcome=\"filled\"} " + fills + ".0\n");
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}
