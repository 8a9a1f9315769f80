package org.brokerapp.broker.search;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import co.elastic.clients.elasticsearch.core.bulk.BulkResponseItem;
import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.events.OrderEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds this region's search indices as a new version from Cassandra (the source of truth)
 * and switches reads to it, with no downtime and no lost event:
 * <ol>
 * <li>create {@code orders-v<N+1>} and put it behind {@code orders-indexing}: the indexer now
 *     writes every new event to both versions;</li>
 * <li>wait until every indexer has seen that (a few times its alias refresh), so no event can
 *     reach the old version alone after the scan below has passed it;</li>
 * <li>scan {@code customer_ledger} and write what belongs to this region (orders placed here or of
 *     customers at home here, orders and trades filled here) into version N+1, with the same ids and forward-only versions as
 *     the indexer, so scan and live events can interleave in any order;</li>
 * <li>one atomic alias update: reads move to N+1, the indexer stops writing N.</li>
 * </ol>
 * Searches read version N until the last step and N+1 after it. Version N stays, unread, for a
 * rollback (move the alias back) until an operator deletes it. Fills rebuilt from the ledger
 * have no tick time (the ledger does not keep it), so they carry no fill latency.
 */
final class Reindexer {

    private static final Logger log = LoggerFactory.getLogger(Reindexer.class);
    private static final int BATCH = 1_000;

    /** What a reindex did. */
    public record Report(int fromVersion, int toVersion, long orders, long trades, Duration took) {
    }

    private final ElasticsearchClient client;
    private final SearchIndices indices;
    private final CustomerLedger ledger;
    private final Function<String, Optional<String>> homeOf;
    private final String region;
    private final Duration settle;

    Reindexer(ElasticsearchClient client, CustomerLedger ledger, Function<String, Optional<String>> homeOf, String region, Duration settle) {
        this.client = client;
        this.indices = new SearchIndices(client);
        this.ledger = ledger;
        this.homeOf = homeOf;
        this.region = region;
        this.settle = settle;
    }

    public synchronized Report run() throws IOException, InterruptedException {
        long started = System.nanoTime();
        indices.ensure();
        int from = indices.readVersion();
        int to = Math.max(from, indices.existingVersions().last()) + 1;
        log.info("reindex: building v{} beside v{}", to, from);
        indices.startWriting(to);
        Thread.sleep(settle.toMillis());

        long orders = 0;
        long trades = 0;
        List<BulkOperation> batch = new ArrayList<>();
        for (Order order : (Iterable<Order>) ledger.everyOrder()::iterator) {
            boolean filledHere = order.status() == OrderStatus.FILLED && region.equals(order.filledBy());
            if (!filledHere && !region.equals(order.placedRegion()) && !homeOf.apply(order.customerId()).filter(region::equals).isPresent()) {
                continue;
            }
            OrderEvent event = eventOf(order);
            batch.add(OrderEventIndexer.orderOperation(SearchIndices.ordersIndex(to), event));
            orders++;
            if (filledHere) {
                batch.add(OrderEventIndexer.tradeOperation(SearchIndices.tradesIndex(to, order.filledAt()), event));
                trades++;
            }
            if (batch.size() >= BATCH) {
                write(batch);
            }
        }
        write(batch);
        indices.refresh();
        indices.switchReads(from, to);
        Report report = new Report(from, to, orders, trades, Duration.ofNanos(System.nanoTime() - started));
        log.info("reindex done: {}", report);
        return report;
    }

    private void write(List<BulkOperation> batch) throws IOException {
        if (batch.isEmpty()) {
            return;
        }
        BulkResponse response = client.bulk(b -> b.operations(batch));
        if (response.errors()) {
            for (BulkResponseItem item : response.items()) {
                if (item.error() != null && item.status() != 409) {
                    throw new IOException("reindex bulk refused " + item.index() + "/" + item.id() + ": " + item.error().reason());
                }
            }
        }
        batch.clear();
    }

    /** The order as the ledger knows it, as the event that would have brought it to this state. */
    private OrderEvent eventOf(Order o) {
        return switch (o.status()) {
            case OPEN -> OrderEvent.placed(o, o.placedAt(), region);
            case FILLED -> OrderEvent.filled(o, null, null, o.filledAt(), region);
            case CANCELLED -> OrderEvent.cancelled(o, o.closedAt(), region);
            case EXPIRED -> OrderEvent.expired(o, o.closedAt(), region);
        };
    }
}
