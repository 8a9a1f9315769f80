package org.brokerapp.broker.routing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import org.brokerapp.broker.order.Order;
import org.brokerapp.broker.order.OrderType;
import org.brokerapp.broker.order.Side;
import org.brokerapp.broker.schema.BrokerCql;
import org.springframework.stereotype.Repository;

/**
 * The order_inbox table: how orders and cancels placed in any region reach the home region of
 * their symbol through Cassandra's own replication, with no cross-region call. One partition per
 * home region and second; the home broker re-reads the last few seconds on every poll, since rows
 * from other regions arrive up to a replication delay late.
 */
@Repository
public class OrderInbox {

    private final CqlSession session;
    private final BrokerCql cql;

    public OrderInbox(CqlSession session, BrokerCql cql) {
        this.session = session;
        this.cql = cql;
    }

    public static long bucketOf(Instant time) {
        return time.getEpochSecond();
    }

    public void post(String homeRegion, InboxEvent.Kind kind, Order order) {
        session.execute(cql.insertInboxEvent.bind(homeRegion, bucketOf(Instant.now()), Uuids.timeBased(), kind.name(), order.customerId(),
                order.orderId(), order.symbol(), order.side().name(), order.type().name(), order.quantity(), order.triggerPrice()));
    }

    public List<InboxEvent> read(String homeRegion, long bucket) {
        List<InboxEvent> events = new ArrayList<>();
        for (Row r : session.execute(cql.selectInbox.bind(homeRegion, bucket))) {
            events.add(new InboxEvent(r.getUuid("event_id"), InboxEvent.Kind.valueOf(r.getString("kind")), r.getString("customer_id"),
                    r.getUuid("order_id"), r.getString("symbol"), Side.valueOf(r.getString("side")), OrderType.valueOf(r.getString("order_type")),
                    r.getLong("quantity"), r.getBigDecimal("trigger_price")));
        }
        return events;
    }

    public OptionalLong checkpoint(String homeRegion) {
        Row row = session.execute(cql.selectInboxCheckpoint.bind(homeRegion)).one();
        return row == null || row.isNull("bucket") ? OptionalLong.empty() : OptionalLong.of(row.getLong("bucket"));
    }

    public void saveCheckpoint(String homeRegion, long bucket) {
        session.execute(cql.saveInboxCheckpoint.bind(bucket, homeRegion));
    }
}
