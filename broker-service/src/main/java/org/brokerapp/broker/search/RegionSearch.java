package org.brokerapp.broker.search;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.aggregations.Aggregate;
import co.elastic.clients.elasticsearch._types.aggregations.DateHistogramBucket;
import co.elastic.clients.elasticsearch._types.aggregations.StringTermsBucket;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;

/**
 * The queries one region's cluster answers. Every customer query filters on the customer's id
 * first: a search never reads another customer's documents, whatever else it asks.
 */
final class RegionSearch {

    private final String region;
    private final ElasticsearchClient client;
    private final SearchIndices indices;
    private volatile int readVersion;
    private volatile long readVersionAt;

    RegionSearch(String region, ElasticsearchClient client) {
        this.region = region;
        this.client = client;
        this.indices = new SearchIndices(client);
    }

    String region() {
        return region;
    }

    List<Map<String, Object>> trades(SearchQuery q) throws IOException {
        List<Query> filters = customerFilters(q);
        q.symbol().ifPresent(s -> filters.add(term("symbol", s)));
        q.side().ifPresent(s -> filters.add(term("side", s)));
        if (q.from().isPresent() || q.to().isPresent()) {
            filters.add(range("filledAt", q.from().orElse(null), q.to().orElse(null)));
        }
        String index = SearchIndices.tradesPattern(readVersion());
        return hits(client.search(s -> s.index(index).ignoreUnavailable(true).allowNoIndices(true)
                .query(Query.of(x -> x.bool(BoolQuery.of(b -> b.filter(filters))))).size(q.depth())
                .sort(o -> o.field(f -> f.field("filledAt").order(SortOrder.Desc))).sort(o -> o.field(f -> f.field("orderId").order(SortOrder.Asc))),
                Map.class));
    }

    List<Map<String, Object>> orders(SearchQuery q) throws IOException {
        List<Query> filters = customerFilters(q);
        q.symbol().ifPresent(s -> filters.add(term("symbol", s)));
        q.side().ifPresent(s -> filters.add(term("side", s)));
        q.status().ifPresent(s -> filters.add(term("status", s)));
        q.orderType().ifPresent(s -> filters.add(term("orderType", s)));
        if (q.from().isPresent() || q.to().isPresent()) {
            filters.add(range("placedAt", q.from().orElse(null), q.to().orElse(null)));
        }
        return hits(client.search(s -> s.index(SearchIndices.ORDERS)
                .query(Query.of(x -> x.bool(BoolQuery.of(b -> b.filter(filters))))).size(q.depth())
                .sort(o -> o.field(f -> f.field("placedAt").order(SortOrder.Desc))).sort(o -> o.field(f -> f.field("orderId").order(SortOrder.Asc))),
                Map.class));
    }

    /**
     * Trades of every customer in [from, to): per interval, symbol and filling region the trade
     * count, quantity and notional (exact sums of units of 0.0001), and this region's fill-latency
     * percentiles (tick to durable).
     */
    Analytics.RegionPart analytics(Instant from, Instant to, Duration interval) throws IOException {
        String index = SearchIndices.tradesPattern(readVersion());
        SearchResponse<Void> response = client.search(s -> s.index(index).ignoreUnavailable(true).allowNoIndices(true)
                .size(0).query(range("filledAt", from, to))
                .aggregations("byInterval", a -> a.dateHistogram(h -> h.field("filledAt").fixedInterval(t -> t.time(interval.toSeconds() + "s")).minDocCount(1))
                        .aggregations("bySymbol", s2 -> s2.terms(t -> t.field("symbol").size(2_000))
                                .aggregations("byRegion", s3 -> s3.terms(t -> t.field("filledBy").size(50))
                                        .aggregations("quantity", s4 -> s4.sum(x -> x.field("quantity")))
                                        .aggregations("notionalE4", s4 -> s4.sum(x -> x.field("notionalE4"))))))
                .aggregations("latency", a -> a.percentiles(p -> p.field("fillLatencyMicros").percents(50.0, 90.0, 99.0).keyed(false))),
                Void.class);
        List<Analytics.Cell> cells = new ArrayList<>();
        Aggregate byInterval = response.aggregations().get("byInterval");
        if (byInterval != null) {
            for (DateHistogramBucket time : byInterval.dateHistogram().buckets().array()) {
                for (StringTermsBucket symbol : time.aggregations().get("bySymbol").sterms().buckets().array()) {
                    for (StringTermsBucket filledBy : symbol.aggregations().get("byRegion").sterms().buckets().array()) {
                        cells.add(new Analytics.Cell(Instant.ofEpochMilli(time.key()), symbol.key().stringValue(), filledBy.key().stringValue(),
                                filledBy.docCount(), Math.round(filledBy.aggregations().get("quantity").sum().value()),
                                Math.round(filledBy.aggregations().get("notionalE4").sum().value())));
                    }
                }
            }
        }
        long total = response.hits().total() == null ? cells.stream().mapToLong(Analytics.Cell::trades).sum() : response.hits().total().value();
        Double p50 = null;
        Double p90 = null;
        Double p99 = null;
        Aggregate latency = response.aggregations().get("latency");
        if (latency != null && latency.tdigestPercentiles().values().isArray()) {
            for (var item : latency.tdigestPercentiles().values().array()) {
                Double ms = Double.isNaN(item.value()) ? null : item.value() / 1_000.0;
                if (item.key() == 50.0) {
                    p50 = ms;
                } else if (item.key() == 90.0) {
                    p90 = ms;
                } else if (item.key() == 99.0) {
                    p99 = ms;
                }
            }
        }
        return new Analytics.RegionPart(region, cells, new Analytics.Latency(region, total, p50, p90, p99));
    }

    private int readVersion() throws IOException {
        long now = System.nanoTime();
        if (readVersion == 0 || now - readVersionAt > Duration.ofSeconds(1).toNanos()) {
            readVersion = indices.readVersion();
            readVersionAt = now;
        }
        return readVersion;
    }

    private static List<Query> customerFilters(SearchQuery q) {
        List<Query> filters = new ArrayList<>();
        filters.add(term("customerId", q.customerId()));
        return filters;
    }

    private static Query term(String field, String value) {
        return Query.of(q -> q.term(t -> t.field(field).value(value)));
    }

    private static Query range(String field, Instant from, Instant to) {
        return Query.of(q -> q.range(r -> r.date(d -> {
            d.field(field);
            if (from != null) {
                d.gte(from.toString());
            }
            if (to != null) {
                d.lt(to.toString());
            }
            return d;
        })));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> hits(SearchResponse<Map> response) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Hit<Map> hit : response.hits().hits()) {
            out.add((Map<String, Object>) hit.source());
        }
        return out;
    }
}
