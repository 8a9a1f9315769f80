package org.brokerapp.broker.order;

import java.util.concurrent.CompletableFuture;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.matching.OpenOrders;
import org.brokerapp.broker.matching.RestingOrders;
import org.springframework.stereotype.Component;

/**
 * A LIMIT or STOP order's two rows, its ledger row (the customer's partition) and its open_orders
 * row (its symbol's shard), sent as one unlogged batch: one request to Cassandra where they were
 * two. Not for atomicity, which an unlogged batch over two partitions does not give and the
 * placement does not need ({@link OrderService} says why), but for cost: on a small machine a
 * request costs the nodes about as much CPU again as its replica writes (thread wake-ups), and
 * the batch is answered when both rows are, as the two writes were. Both rows carry the order's
 * placement time as their timestamp, so the batch sent again after a timeout writes the same cells.
 */
@Component
class RestingOrderRows {

    private final CqlSession session;
    private final CustomerLedger ledger;
    private final OpenOrders openOrders;

    RestingOrderRows(CqlSession session, CustomerLedger ledger, OpenOrders openOrders) {
        this.session = session;
        this.ledger = ledger;
        this.openOrders = openOrders;
    }

    CompletableFuture<Void> write(Order order) {
        BatchStatement rows = BatchStatement.newInstance(DefaultBatchType.UNLOGGED, ledger.insert(order), openOrders.insert(RestingOrders.of(order)))
                .setIdempotent(true);
        return session.executeAsync(rows).toCompletableFuture().thenApply(rs -> null);
    }
}
