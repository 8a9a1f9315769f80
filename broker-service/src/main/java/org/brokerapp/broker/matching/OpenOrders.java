package org.brokerapp.broker.matching;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import org.brokerapp.broker.book.RestingOrder;
import org.brokerapp.broker.core.OrderType;
import org.brokerapp.broker.core.PriceUnits;
import org.brokerapp.broker.core.Side;
import org.brokerapp.broker.schema.BrokerCql;
import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.stereotype.Repository;

/**
 * The open_orders table: the resting orders of each symbol, spread over a fixed number of shards
 * per symbol. The owner of the customer's account writes a row with the order's placement (so a
 * region taking a symbol over finds every resting order, however it learnt of them), the matcher
 * holding the symbol deletes it after the fill or cancel; only a rebuilding matcher reads it, the
 * per-tick path never.
 */
@Repository
public class OpenOrders {

    private final CqlSession session;
    private final BrokerCql cql;
    private final int shards;

    public OpenOrders(CqlSession session, BrokerCql cql, BrokerProperties properties) {
        this.session = session;
        this.cql = cql;
        this.shards = properties.matching().openOrderShards();
    }

    int shardOf(UUID orderId) {
        return Math.floorMod(orderId.hashCode(), shards);
    }

    /**
     * Saves a resting order with its placement time as the write timestamp. Saving the same order
     * again (a placement written again after a timeout) then writes the same cell version, and
     * the fill's or cancel's later delete always wins: a filled order's row never comes back.
     */
    public CompletionStage<AsyncResultSet> saveAsync(RestingOrder o, Instant placedAt) {
        long micros = TimeUnit.SECONDS.toMicros(placedAt.getEpochSecond()) + TimeUnit.NANOSECONDS.toMicros(placedAt.getNano());
        return session.executeAsync(cql.insertOpenOrder.bind(o.symbol(), shardOf(o.orderId()), o.orderId(), o.customerId(), o.side().name(),
                o.type().name(), o.quantity(), PriceUnits.toDecimal(o.triggerPrice()), placedAt, micros));
    }

    public CompletionStage<AsyncResultSet> deleteAsync(String symbol, UUID orderId) {
        return session.executeAsync(cql.deleteOpenOrder.bind(symbol, shardOf(orderId), orderId));
    }

    /** Every resting order of a symbol, all shards read in parallel. */
    public List<RestingOrder> load(String symbol) {
        List<CompletableFuture<List<RestingOrder>>> reads = new ArrayList<>();
        for (int shard = 0; shard < shards; shard++) {
            reads.add(session.executeAsync(cql.selectOpenOrders.bind(symbol, shard))
                    .thenCompose(rs -> drain(symbol, rs, new ArrayList<>())).toCompletableFuture());
        }
        return reads.stream().flatMap(f -> f.join().stream()).toList();
    }

    private static CompletionStage<List<RestingOrder>> drain(String symbol, AsyncResultSet page, List<RestingOrder> into) {
        for (Row r : page.currentPage()) {
            into.add(new RestingOrder(r.getUuid("order_id"), r.getString("customer_id"), symbol, Side.valueOf(r.getString("side")),
                    OrderType.valueOf(r.getString("order_type")), r.getLong("quantity"), PriceUnits.of(r.getBigDecimal("trigger_price"))));
        }
        return page.hasMorePages() ? page.fetchNextPage().thenCompose(next -> drain(symbol, next, into)) : CompletableFuture.completedFuture(into);
    }
}
