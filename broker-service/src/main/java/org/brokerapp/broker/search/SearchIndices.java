package org.brokerapp.broker.search;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch.indices.update_aliases.Action;

/**
 * The index design, in one place. Orders: {@code orders-v<N>}, one document per order, read
 * through the alias {@value #ORDERS}; the indexer writes every index behind
 * {@value #ORDERS_INDEXING} (two during a reindex). Trades: daily indices
 * {@code trades-v<N>-yyyy.MM.dd} named after the fill's own UTC day, read as
 * {@code trades-v<N>-*} where N is the version behind {@value #ORDERS}: one alias switch moves
 * the reads of both. Templates ({@code search/*-template.json}) give every index its strict mapping.
 */
final class SearchIndices {

    public static final String ORDERS = "orders";
    public static final String ORDERS_INDEXING = "orders-indexing";
    private static final Pattern ORDERS_VERSION = Pattern.compile("orders-v(\\d+)");
    private static final Pattern TRADES_DAY = Pattern.compile("trades-v(\\d+)-(\\d{4}\\.\\d{2}\\.\\d{2})");
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy.MM.dd").withZone(ZoneOffset.UTC);

    private final ElasticsearchClient client;

    public SearchIndices(ElasticsearchClient client) {
        this.client = client;
    }

    public static String ordersIndex(int version) {
        return "orders-v" + version;
    }

    /** The daily trade index of version {@code version} that a fill at {@code filledAt} belongs to. */
    public static String tradesIndex(int version, Instant filledAt) {
        return "trades-v" + version + "-" + DAY.format(filledAt);
    }

    public static String tradesPattern(int version) {
        return "trades-v" + version + "-*";
    }

    static int versionOf(String ordersIndex) {
        Matcher m = ORDERS_VERSION.matcher(ordersIndex);
        if (!m.matches()) {
            throw new IllegalStateException("not an orders index: " + ordersIndex);
        }
        return Integer.parseInt(m.group(1));
    }

    /** Installs the templates and, on an empty cluster, {@code orders-v1} behind both aliases. Idempotent. */
    public void ensure() throws IOException {
        putTemplate("orders", "search/orders-template.json");
        putTemplate("trades", "search/trades-template.json");
        if (!client.indices().existsAlias(a -> a.name(ORDERS)).value()) {
            try {
                client.indices().create(c -> c.index(ordersIndex(1)).aliases(ORDERS, a -> a).aliases(ORDERS_INDEXING, a -> a));
            } catch (ElasticsearchException e) {
                if (!"resource_already_exists_exception".equals(e.error().type())) {
                    throw e;
                }
            }
        }
    }

    private void putTemplate(String name, String resource) throws IOException {
        try (InputStream json = SearchIndices.class.getClassLoader().getResourceAsStream(resource)) {
            if (json == null) {
                throw new IllegalStateException(resource + " is missing from the classpath");
            }
            client.indices().putIndexTemplate(t -> t.name(name).withJson(json));
        }
    }

    /** The version reads use: the one index behind {@value #ORDERS}. */
    public int readVersion() throws IOException {
        List<String> behind = indicesBehind(ORDERS);
        if (behind.size() != 1) {
            throw new IllegalStateException("alias " + ORDERS + " must name one index, names " + behind);
        }
        return versionOf(behind.get(0));
    }

    /** The versions the indexer writes (behind {@value #ORDERS_INDEXING}), oldest first. */
    public List<Integer> writeVersions() throws IOException {
        return indicesBehind(ORDERS_INDEXING).stream().map(SearchIndices::versionOf).sorted().toList();
    }

    private List<String> indicesBehind(String alias) throws IOException {
        if (!client.indices().existsAlias(a -> a.name(alias)).value()) {
            return List.of();
        }
        return new ArrayList<>(client.indices().getAlias(a -> a.name(alias)).result().keySet());
    }

    /** Every orders version that exists, behind an alias or not. */
    public TreeSet<Integer> existingVersions() throws IOException {
        TreeSet<Integer> versions = new TreeSet<>();
        for (String index : client.indices().get(g -> g.index("orders-v*").allowNoIndices(true)).result().keySet()) {
            Matcher m = ORDERS_VERSION.matcher(index);
            if (m.matches()) {
                versions.add(Integer.parseInt(m.group(1)));
            }
        }
        return versions;
    }

    /** Creates {@code orders-v<version>} and puts it behind {@value #ORDERS_INDEXING}: from now on the indexer writes it too. */
    public void startWriting(int version) throws IOException {
        client.indices().create(c -> c.index(ordersIndex(version)));
        client.indices().updateAliases(u -> u.actions(Action.of(a -> a.add(add -> add.index(ordersIndex(version)).alias(ORDERS_INDEXING)))));
    }

    /**
     * One atomic alias update: reads move from {@code from} to {@code to} (orders, and with them
     * trades), and the indexer stops writing {@code from}. A search sees one version or the other,
     * never both, never neither.
     */
    public void switchReads(int from, int to) throws IOException {
        client.indices().updateAliases(u -> u
                .actions(Action.of(a -> a.remove(r -> r.index(ordersIndex(from)).alias(ORDERS))))
                .actions(Action.of(a -> a.add(r -> r.index(ordersIndex(to)).alias(ORDERS))))
                .actions(Action.of(a -> a.remove(r -> r.index(ordersIndex(from)).alias(ORDERS_INDEXING)))));
    }

    /** Deletes daily trade indices of every version whose day ended more than {@code retentionDays} ago; returns their names. */
    public List<String> applyRetention(Instant now, long retentionDays) throws IOException {
        LocalDate oldestKept = LocalDate.ofInstant(now, ZoneOffset.UTC).minusDays(retentionDays);
        List<String> expired = new ArrayList<>();
        for (String index : client.indices().get(g -> g.index("trades-v*").allowNoIndices(true)).result().keySet()) {
            dayOf(index).filter(day -> day.isBefore(oldestKept)).ifPresent(day -> expired.add(index));
        }
        if (!expired.isEmpty()) {
            client.indices().delete(d -> d.index(expired));
        }
        return expired;
    }

    static Optional<LocalDate> dayOf(String tradesIndex) {
        Matcher m = TRADES_DAY.matcher(tradesIndex);
        return m.matches() ? Optional.of(LocalDate.parse(m.group(2), DateTimeFormatter.ofPattern("yyyy.MM.dd"))) : Optional.empty();
    }

    public void refresh() throws IOException {
        client.indices().refresh(r -> r.index("orders-v*", "trades-v*").allowNoIndices(true));
    }

    static UncheckedIOException unchecked(IOException e) {
        return new UncheckedIOException(e);
    }
}
