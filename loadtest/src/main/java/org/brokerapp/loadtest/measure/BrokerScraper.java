package org.brokerapp.loadtest.measure;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLContext;

import org.HdrHistogram.Histogram;
import org.brokerapp.loadtest.prometheus.PrometheusHistogram;

/**
 * Reads the brokers' own measures from {@code /actuator/prometheus}: the ticker-to-fill histogram
 * (tick event time to fill durable) and the fill counter, per region; and from
 * {@code /actuator/latency} the exact HdrHistograms of ticker-to-fill and receipt-to-fill (a broker
 * without that endpoint, 404, has none: its ticker-to-fill falls back to the Prometheus buckets).
 * A broker too busy to answer within the timeout gives an empty scrape for that round, not a failed run.
 *
 * <p>A region of several instances is read instance by instance (a scrape's keys are {@link #instanceKey
 * instance keys}), since each counts from its own start; {@link Scrape#minus} takes each instance's
 * window and adds them up per region.
 */
public final class BrokerScraper {

    public static final String TICK_TO_FILL = "broker_fill_tick_to_fill_seconds";
    public static final String FILLS = "broker_fills_total";
    /** Durable in Cassandra to searchable in the region's Elasticsearch; absent when a broker runs without search. */
    public static final String INDEXING_LAG = "broker_search_indexing_lag_seconds";
    /**
     * Only these families, by their names without suffixes ({@code _total}, {@code _bucket}): the whole
     * page, every JVM, Kafka and driver meter with its buckets, cost the broker a few per cent of its
     * CPU at each progress line (docs/benchmarks/README.md).
     */
    static final String PROMETHEUS_PATH = "/actuator/prometheus?includedNames=" + String.join(",", TICK_TO_FILL,
            FILLS.substring(0, FILLS.length() - "_total".length()), INDEXING_LAG);

    private final HttpClient http;
    private final Map<String, List<String>> instanceUrls;

    /** One scrape of every region's broker; {@code indexingLag} is empty for a region without search. */
    public record Scrape(Map<String, PrometheusHistogram> tickToFill, Map<String, Double> fills, Map<String, PrometheusHistogram> indexingLag,
                         boolean complete, Map<String, ExactLatency> exact) {

        public Scrape(Map<String, PrometheusHistogram> tickToFill, Map<String, Double> fills, boolean complete) {
            this(tickToFill, fills, Map.of(), complete, Map.of());
        }

        public Scrape(Map<String, PrometheusHistogram> tickToFill, Map<String, Double> fills, boolean complete, Map<String, ExactLatency> exact) {
            this(tickToFill, fills, Map.of(), complete, exact);
        }

        /**
         * Each instance's window, added up per region. An instance missing from either scrape, or whose fill count went
         * down (it restarted in between), has no known window: it is left out rather than its whole history reported.
         */
        public Scrape minus(Scrape earlier) {
            java.util.Set<String> restarted = new java.util.HashSet<>();
            fills.forEach((instance, n) -> {
                if (earlier.fills.containsKey(instance) && n < earlier.fills.get(instance)) {
                    restarted.add(instance);
                }
            });
            Map<String, PrometheusHistogram> histograms = new LinkedHashMap<>();
            Map<String, Double> counts = new LinkedHashMap<>();
            Map<String, PrometheusHistogram> lag = new LinkedHashMap<>();
            Map<String, ExactLatency> exactDelta = new LinkedHashMap<>();
            windows(tickToFill, earlier.tickToFill, restarted, PrometheusHistogram::minus, PrometheusHistogram::plus, histograms);
            windows(fills, earlier.fills, restarted, (now, then) -> now - then, Double::sum, counts);
            windows(indexingLag, earlier.indexingLag, restarted, PrometheusHistogram::minus, PrometheusHistogram::plus, lag);
            windows(exact, earlier.exact, restarted, ExactLatency::minus, ExactLatency::plus, exactDelta);
            return new Scrape(histograms, counts, lag, complete && earlier.complete, exactDelta);
        }

        /** Into {@code byRegion}: each instance's window of a measure ({@code now} minus {@code then}), added up per region. */
        private static <T> void windows(Map<String, T> now, Map<String, T> then, java.util.Set<String> restarted,
                                        java.util.function.BinaryOperator<T> minus, java.util.function.BinaryOperator<T> plus, Map<String, T> byRegion) {
            now.forEach((instance, value) -> {
                if (then.containsKey(instance) && !restarted.contains(instance)) {
                    byRegion.merge(regionOf(instance), minus.apply(value, then.get(instance)), plus);
                }
            });
        }

        /** Every measure some broker has an exact histogram of, in the brokers' order. */
        public Set<String> exactMeasures() {
            Set<String> measures = new LinkedHashSet<>();
            exact.values().forEach(e -> measures.addAll(e.measures()));
            return measures;
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

    /** One broker per region. */
    public BrokerScraper(Map<String, String> brokerUrls) {
        this(oneEach(brokerUrls), Optional.empty());
    }

    /**
     * Every instance of each region, by its own URL. {@code trust}: what HTTPS brokers are checked against beyond the JVM's
     * defaults (the local stack's CA).
     */
    public BrokerScraper(Map<String, List<String>> instanceUrls, Optional<SSLContext> trust) {
        this.instanceUrls = Map.copyOf(instanceUrls);
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5));
        trust.ifPresent(builder::sslContext);
        this.http = builder.build();
    }

    /**
     * Every instance at once, each within {@code timeout}: the scrape takes as long as the slowest
     * instance, not the sum of them (run one after another, a loaded machine's four instances made
     * the progress loop fall tens of seconds behind its schedule).
     */
    public Scrape scrape(Duration timeout) {
        Map<String, CompletableFuture<InstanceScrape>> pending = new LinkedHashMap<>();
        instances().forEach((instance, url) -> pending.put(instance, scrapeOne(url, regionOf(instance), timeout)));
        Map<String, PrometheusHistogram> histograms = new LinkedHashMap<>();
        Map<String, Double> fills = new LinkedHashMap<>();
        Map<String, ExactLatency> exact = new LinkedHashMap<>();
        Map<String, PrometheusHistogram> lag = new LinkedHashMap<>();
        boolean complete = true;
        for (Map.Entry<String, CompletableFuture<InstanceScrape>> scraping : pending.entrySet()) {
            String instance = scraping.getKey();
            try {
                InstanceScrape one = scraping.getValue().get();
                histograms.put(instance, one.tickToFill());
                fills.put(instance, one.fills());
                one.indexingLag().ifPresent(l -> lag.put(instance, l));
                one.exact().ifPresent(e -> exact.put(instance, e));
            } catch (ExecutionException e) {
                complete = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                pending.values().forEach(f -> f.cancel(true));
                complete = false;
                break;
            }
        }
        return new Scrape(histograms, fills, lag, complete, exact);
    }

    /** What one instance answered: its Prometheus families, then its exact latencies (none if it has no such endpoint). */
    private record InstanceScrape(PrometheusHistogram tickToFill, double fills, Optional<PrometheusHistogram> indexingLag,
                                  Optional<ExactLatency> exact) {
    }

    private CompletableFuture<InstanceScrape> scrapeOne(String url, String region, Duration timeout) {
        return get(url + PROMETHEUS_PATH, timeout).thenCompose(prometheus -> {
            if (prometheus.statusCode() != 200) {
                throw new CompletionException(new IOException("HTTP " + prometheus.statusCode()));
            }
            String body = prometheus.body();
            Optional<PrometheusHistogram> indexingLag = body.contains(INDEXING_LAG + "_bucket")
                    ? Optional.of(PrometheusHistogram.parse(body, INDEXING_LAG, region)) : Optional.empty();
            PrometheusHistogram tickToFill = PrometheusHistogram.parse(body, TICK_TO_FILL, region);
            double filled = PrometheusHistogram.counter(body, FILLS, region, "outcome=\"filled\"");
            return get(url + "/actuator/latency", timeout).thenApply(latency -> {
                if (latency.statusCode() != 200 && latency.statusCode() != 404) {
                    throw new CompletionException(new IOException("HTTP " + latency.statusCode() + " from /actuator/latency"));
                }
                Optional<ExactLatency> exact = latency.statusCode() == 200 ? Optional.of(ExactLatency.parse(latency.body())) : Optional.empty();
                return new InstanceScrape(tickToFill, filled, indexingLag, exact);
            });
        });
    }

    private CompletableFuture<HttpResponse<String>> get(String url, Duration timeout) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create(url)).header("Authorization", org.brokerapp.client.BearerTokens.operator())
                .timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Instance key to URL, regions in name order: a region's first instance is keyed by the region's name, the n-th by "region #n". */
    private Map<String, String> instances() {
        Map<String, String> byKey = new LinkedHashMap<>();
        new java.util.TreeMap<>(instanceUrls).forEach((region, urls) -> {
            for (int i = 0; i < urls.size(); i++) {
                byKey.put(instanceKey(region, i + 1), urls.get(i));
            }
        });
        return byKey;
    }

    /** How a scrape names instance {@code number} (from 1) of {@code region}. */
    public static String instanceKey(String region, int number) {
        return number == 1 ? region : region + " #" + number;
    }

    static String regionOf(String instanceKey) {
        int mark = instanceKey.indexOf(" #");
        return mark < 0 ? instanceKey : instanceKey.substring(0, mark);
    }

    private static Map<String, List<String>> oneEach(Map<String, String> brokerUrls) {
        Map<String, List<String>> each = new LinkedHashMap<>();
        brokerUrls.forEach((region, url) -> each.put(region, List.of(url)));
        return each;
    }
}
