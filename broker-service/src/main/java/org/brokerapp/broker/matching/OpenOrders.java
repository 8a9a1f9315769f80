package org.brokerapp.broker.matching;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.book.RestingOrder;
import org.brokerapp.broker.core.PriceUnits;
import org.brokerapp.broker.schema.BrokerCql;
import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.beans.factory.annotation.Autowired;
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

    /** Shard reads at once during a rebuild: enough to hide the round trips, few enough not to time out on a small node. */
    static final int READS_IN_FLIGHT = 32;

    private final CqlSession session;
    private final BrokerCql cql;
    private final int shards;

    @Autowired
    public OpenOrders(CqlSession session, BrokerCql cql, BrokerProperties properties) {
        this(session, cql, properties.matching().openOrderShards());
    }

    OpenOrders(CqlSession session, BrokerCql cql, int shards) {
        this.session = session;
        this.cql = cql;
        this.shards = shards;
    }

    int shardOf(UUID orderId) {
        return Math.floorMod(orderId.hashCode(), shards);
    }

    /**
     * Saves a resting order with its placement time as the write timestamp. Saving the same order
     * again (a placement written again after a timeout) then writes the same cell version, and
     * the fill's or cancel's later delete always wins: a filled order's row never comes back.
     */
    public CompletionStage<AsyncResultSet> saveAsync(RestingOrder o) {
        return session.executeAsync(insert(o));
    }

    /** The write {@link #saveAsync} sends, for a batch with the order's ledger row (a placement). */
    public BoundStatement insert(RestingOrder o) {
        return cql.insertOpenOrder.bind(o.symbol(), shardOf(o.orderId()), o.orderId(), o.customerId(), o.side().name(),
                o.placedAs().name(), o.quantity(), PriceUnits.toDecimal(o.triggerPrice()), o.placedAt(), o.expiresAt(),
                o.limitPrice() == 0 ? null : PriceUnits.toDecimal(o.limitPrice()), BrokerCql.writeTimestamp(o.placedAt()));
    }

    /**
     * Deletes an order's row after its decision, stamped after both the decision ({@code now}) and the
     * row's own timestamp: the placing broker's clock may run ahead of the deciding one's (the
     * clock-skew drill steps one by 2 s), and a delete stamped before the insert would leave the row
     * of a decided order behind. {@code placedAt} unknown (a cancel of an order found only in the
     * ledger, whose read did not see it) stamps it {@code now}.
     */
    public CompletionStage<AsyncResultSet> deleteAsync(String symbol, UUID orderId, Optional<Instant> placedAt, Instant now) {
        long stamp = Math.max(BrokerCql.writeTimestamp(now), placedAt.map(at -> BrokerCql.writeTimestamp(at) + 1).orElse(Long.MIN_VALUE));
        return session.executeAsync(cql.deleteOpenOrder.bind(stamp, symbol, shardOf(orderId), orderId));
    }


    /** Every resting order of a symbol, all shards read in parallel. */
    public List<RestingOrder> load(String symbol) {
        return load(List.of(symbol));
    }

    /**
     * Every resting order of {@code symbols}, their shards read {@value #READS_IN_FLIGHT} at a time.
     * A matcher taking over a dead instance's symbols rebuilds hundreds of them; read one symbol after
     * another, that took 35 s on a quiet machine and 84 s on a loaded one (the broker-kill drill), and
     * the symbols' ticks and MARKET orders waited all along.
     */
    public List<RestingOrder> load(Collection<String> symbols) {
        Semaphore inFlight = new Semaphore(READS_IN_FLIGHT);
        AtomicBoolean failed = new AtomicBoolean();
        List<CompletableFuture<List<RestingOrder>>> reads = new ArrayList<>();
        for (String symbol : symbols) {
            for (int shard = 0; shard < shards && !failed.get(); shard++) {
                inFlight.acquireUninterruptibly();
                CompletableFuture<List<RestingOrder>> read = session.executeAsync(cql.selectOpenOrders.bind(symbol, shard))
                        .thenCompose(rs -> drain(symbol, rs, new ArrayList<>())).toCompletableFuture();
                read.whenComplete((orders, failure) -> {
                    failed.compareAndSet(false, failure != null); // the first failure ends the rebuild: its caller starts it again
                    inFlight.release();
                });
                reads.add(read);
            }
        }
        return reads.stream().flatMap(f -> f.join().stream()).toList();
    }

    private static CompletionStage<List<RestingOrder>> drain(String symbol, AsyncResultSet page, List<RestingOrder> into) {
        for (Row r : page.currentPage()) {
            into.add(RestingOrders.of(r.getUuid("order_id"), r.getString("customer_id"), symbol, Side.valueOf(r.getString("side")),
                    OrderType.valueOf(r.getString("order_type")), r.getLong("quantity"), r.getBigDecimal("trigger_price"),
                    r.getBigDecimal("limit_price"), r.getInstant("placed_at"), r.getInstant("expires_at")));
        }
        return page.hasMorePages() ? page.fetchNextPage().thenCompose(next -> drain(symbol, next, into)) : CompletableFuture.completedFuture(into);
    }
}
