package org.brokerapp.loadtest.measure;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;

import org.HdrHistogram.Histogram;

/**
 * Reads the brokers' own measures from {@code /actuator/prometheus}: the ticker-to-fill histogram
 * (tick event time to fill durable) and the fill counter, per region; and from
 * {@code /actuator/latency} the exact HdrHistograms of ticker-to-fill and receipt-to-fill (a broker
 * without that endpoint, 404, has none: its ticker-to-fill falls back to the Prometheus buckets).
 * A broker too busy to answer within the timeout gives an empty scrape for that round, not a failed run.
 */
public final class BrokerScraper {

    public static final String TICK_TO_FILL = "broker_fill_tick_to_fill_seconds";
    public static final String FILLS = "broker_fills_total";
    /** Durable in Cassandra to searchable in the region's Elasticsearch; absent when a broker runs without search. */
    public static final String INDEXING_LAG = "broker_search_indexing_lag_seconds";

    private final HttpClient http;
    private final Map<String, String> brokerUrls;

    /** One scrape of every region's broker; {@code indexingLag} is empty for a region without search. */
    public record Scrape(Map<String, PrometheusHistogram> tickToFill, Map<String, Double> fills, Map<String, PrometheusHistogram> indexingLag,
                         boolean complete, Map<String, ExactLatency> exact) {

        public Scrape(Map<String, PrometheusHistogram> tickToFill, Map<String, Double> fills, boolean complete) {
            this(tickToFill, fills, Map.of(), complete, Map.of());
        }

        public Scrape(Map<String, PrometheusHistogram> tickToFill, Map<String, Double> fills, boolean complete, Map<String, ExactLatency> exact) {
            this(tickToFill, fills, Map.of(), complete, exact);
        }

        public Scrape minus(Scrape earlier) {
            Map<String, PrometheusHistogram> histograms = new LinkedHashMap<>();
            Map<String, Double> counts = new LinkedHashMap<>();
            Map<String, ExactLatency> exactDelta = new LinkedHashMap<>();
            // a region missing from either scrape has no known window: leave it out rather than report its whole history
            tickToFill.forEach((region, h) -> {
                if (earlier.tickToFill.containsKey(region)) {
                    histograms.put(region, h.minus(earlier.tickToFill.get(region)));
                    counts.put(region, fills.get(region) - earlier.fills.get(region));
                }
            });
            Map<String, PrometheusHistogram> lag = new LinkedHashMap<>();
            indexingLag.forEach((region, h) -> {
                if (earlier.indexingLag.containsKey(region)) {
                    lag.put(region, h.minus(earlier.indexingLag.get(region)));
                }
            });
            exact.forEach((region, e) -> {
                if (earlier.exact.containsKey(region)) {
                    exactDelta.put(region, e.minus(earlier.exact.get(region)));
                }
            });
            return new Scrape(histograms, counts, lag, complete && earlier.complete, exactDelta);
        }

        /** The exact histogram of {@code measure} per region, where the brokers have one. */
        public Map<String, Histogram> exact(String measure) {
            Map<String, Histogram> byRegion = new LinkedHashMap<>();
            exact.forEach((region, e) -> {
                if (e.get(measure) != null) {
                    byRegion.put(region, e.get(measure));
                }
            });
            return byRegion;
        }

        public double totalFills() {
            return fills.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    public BrokerScraper(Map<String, String> brokerUrls) {
        this(brokerUrls, Optional.empty());
    }

    /** {@code trust}: what HTTPS brokers are checked against beyond the JVM's defaults (the local stack's CA). */
    public BrokerScraper(Map<String, String> brokerUrls, Optional<SSLContext> trust) {
        this.brokerUrls = Map.copyOf(brokerUrls);
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5));
        trust.ifPresent(builder::sslContext);
        this.http = builder.build();
    }

    public Scrape scrape(Duration timeout) {
        Map<String, PrometheusHistogram> histograms = new LinkedHashMap<>();
        Map<String, Double> fills = new LinkedHashMap<>();
        Map<String, ExactLatency> exact = new LinkedHashMap<>();
        Map<String, PrometheusHistogram> lag = new LinkedHashMap<>();
        boolean complete = true;
        for (Map.Entry<String, String> broker : new java.util.TreeMap<>(brokerUrls).entrySet()) {
            String region = broker.getKey();
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(broker.getValue() + "/actuator/prometheus"))
                        .header("Authorization", org.brokerapp.loadtest.target.BearerTokens.operator()).timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    throw new IOException("HTTP " + r.statusCode());
                }
                histograms.put(region, PrometheusHistogram.parse(r.body(), TICK_TO_FILL, region));
                fills.put(region, PrometheusHistogram.counter(r.body(), FILLS, region, "outcome=\"filled\""));
                if (r.body().contains(INDEXING_LAG + "_bucket")) {
                    lag.put(region, PrometheusHistogram.parse(r.body(), INDEXING_LAG, region));
                }
                HttpResponse<String> latency = http.send(HttpRequest.newBuilder(URI.create(broker.getValue() + "/actuator/latency"))
                        .header("Authorization", org.brokerapp.loadtest.target.BearerTokens.operator()).timeout(timeout).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (latency.statusCode() == 200) {
                    exact.put(region, ExactLatency.parse(latency.body()));
                } else if (latency.statusCode() != 404) {
                    throw new IOException("HTTP " + latency.statusCode() + " from /actuator/latency");
                }
            } catch (IOException e) {
                complete = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                complete = false;
            }
        }
        return new Scrape(histograms, fills, lag, complete, exact);
    }
}
