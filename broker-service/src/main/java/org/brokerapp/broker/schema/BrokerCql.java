package org.brokerapp.broker.schema;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;

/**
 * Every CQL statement the broker runs, in one place, prepared once at start-up. Consistency is
 * the session's (LOCAL_QUORUM; LOCAL_SERIAL for the lease conditions) unless a statement says otherwise.
 * Tables are described in {@code db/cql/V1__orders_ledger_and_matching.cql}.
 *
 * <p>Every read, and every write stamped with a timestamp of its own, is prepared idempotent: the
 * driver then sends a request whose connection died under it (its node killed, the cassandra-kill
 * drill) to the next replica instead of failing it. A conditional write (Paxos) or one stamped by
 * the server is not: run twice, it may answer or write otherwise.
 */
public final class BrokerCql {

    private static final String LEDGER_COLUMNS = "customer_id, order_id, initial_cash, initial_positions, client_order_id, "
            + "symbol, exchange, side, order_type, quantity, limit_price, stop_price, reserved_cash, status, placed_region, placed_at, "
            + "fill_price, filled_at, filled_by, fill_fence, closed_at, cancel_fence, closed_as, time_in_force, expires_at";

    public final PreparedStatement selectLedger;
    public final PreparedStatement selectLedgerOrder;
    public final PreparedStatement openAccount;
    public final PreparedStatement insertOrder;
    public final PreparedStatement insertExecutedOrder;
    public final PreparedStatement selectExchangeOwner;
    public final PreparedStatement claimUnownedExchange;
    public final PreparedStatement moveExchange;
    public final PreparedStatement takeDecisionLease;
    public final PreparedStatement renewDecisionLease;
    public final PreparedStatement releaseDecisionLease;
    public final PreparedStatement selectDecisionLease;
    public final PreparedStatement selectDecisionEpoch;
    public final PreparedStatement firstDecisionEpoch;
    public final PreparedStatement nextDecisionEpoch;
    public final PreparedStatement fillOrder;
    public final PreparedStatement cancelOrder;
    public final PreparedStatement expireOrder;
    public final PreparedStatement insertOpenOrder;
    public final PreparedStatement deleteOpenOrder;
    public final PreparedStatement selectOpenOrders;
    public final PreparedStatement saveLastPrice;
    public final PreparedStatement selectLastPrice;

    // ---- search (issue #13), read only: the reindex rebuilds an index version from the ledger ----
    /** Every ledger row of every customer, paged (a full scan: only the search reindex runs it). */
    public final PreparedStatement scanLedgerForSearch;

    public BrokerCql(CqlSession session, String keyspace) {
        String ledger = keyspace + ".customer_ledger";
        selectLedger = idempotent(session, "SELECT " + LEDGER_COLUMNS + " FROM " + ledger + " WHERE customer_id = ?");
        selectLedgerOrder = idempotent(session, "SELECT " + LEDGER_COLUMNS + " FROM " + ledger + " WHERE customer_id = ? AND order_id = ?");
        openAccount = session.prepare("INSERT INTO " + ledger + " (customer_id, initial_cash, initial_positions) VALUES (?, ?, ?) IF NOT EXISTS");
        // a placement is one plain write by the customer's one owner, stamped with the placement's time: repeating it changes nothing
        insertOrder = idempotent(session, "INSERT INTO " + ledger + " (customer_id, order_id, client_order_id, symbol, exchange, side, order_type, "
                + "quantity, limit_price, stop_price, reserved_cash, status, placed_region, placed_at, time_in_force, expires_at) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'OPEN', ?, ?, ?, ?) USING TIMESTAMP ?");
        insertExecutedOrder = idempotent(session, "INSERT INTO " + ledger + " (customer_id, order_id, client_order_id, symbol, exchange, side, order_type, "
                + "quantity, reserved_cash, status, placed_region, placed_at, fill_price, filled_at, filled_by) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 'FILLED', ?, ?, ?, ?, ?) USING TIMESTAMP ?");
        String owners = keyspace + ".exchange_owners";
        selectExchangeOwner = idempotent(session, "SELECT exchange, owner, epoch, changed_at FROM " + owners + " WHERE exchange = ?");
        claimUnownedExchange = session.prepare("INSERT INTO " + owners + " (exchange, owner, epoch, changed_at, changed_by) VALUES (?, ?, 1, ?, ?) IF NOT EXISTS");
        moveExchange = session.prepare("UPDATE " + owners + " SET owner = ?, epoch = ?, changed_at = ?, changed_by = ? WHERE exchange = ? IF owner = ? AND epoch = ?");
        String leases = keyspace + ".decision_leases";
        takeDecisionLease = session.prepare("INSERT INTO " + leases + " (consumer_group, tick_partition, holder) VALUES (?, ?, ?) IF NOT EXISTS USING TTL ?");
        renewDecisionLease = session.prepare("UPDATE " + leases + " USING TTL ? SET holder = ? WHERE consumer_group = ? AND tick_partition = ? IF holder = ?");
        releaseDecisionLease = session.prepare("DELETE FROM " + leases + " WHERE consumer_group = ? AND tick_partition = ? IF holder = ?");
        selectDecisionLease = idempotent(session, "SELECT holder FROM " + leases + " WHERE consumer_group = ? AND tick_partition = ?");
        // a partition's lease epoch: read and raised at LOCAL_SERIAL by the instance that just took its lease
        String epochs = keyspace + ".decision_epochs";
        selectDecisionEpoch = session.prepare("SELECT epoch FROM " + epochs + " WHERE consumer_group = ? AND tick_partition = ?");
        firstDecisionEpoch = session.prepare("INSERT INTO " + epochs + " (consumer_group, tick_partition, epoch) VALUES (?, ?, 1) IF NOT EXISTS");
        nextDecisionEpoch = session.prepare("UPDATE " + epochs + " SET epoch = ? WHERE consumer_group = ? AND tick_partition = ? IF epoch = ?");
        // the home's decisions: plain writes of cells the placement never writes (see CustomerLedger), stamped with the decider's fence
        fillOrder = idempotent(session, "UPDATE " + ledger + " USING TIMESTAMP ? SET fill_price = ?, filled_at = ?, filled_by = ?, fill_fence = ? "
                + "WHERE customer_id = ? AND order_id = ?");
        // a cancel and an expiry write the same three cells, so a lapsed decider's expiry and its successor's cancel never mix
        cancelOrder = idempotent(session, "UPDATE " + ledger + " USING TIMESTAMP ? SET closed_at = ?, cancel_fence = ?, closed_as = 'CANCELLED' "
                + "WHERE customer_id = ? AND order_id = ?");
        expireOrder = idempotent(session, "UPDATE " + ledger + " USING TIMESTAMP ? SET closed_at = ?, cancel_fence = ?, closed_as = 'EXPIRED' "
                + "WHERE customer_id = ? AND order_id = ?");

        String open = keyspace + ".open_orders";
        insertOpenOrder = idempotent(session, "INSERT INTO " + open + " (symbol, shard, order_id, customer_id, side, order_type, quantity, trigger_price, placed_at, "
                + "expires_at, limit_price) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) USING TIMESTAMP ?");
        deleteOpenOrder = idempotent(session, "DELETE FROM " + open + " USING TIMESTAMP ? WHERE symbol = ? AND shard = ? AND order_id = ?");
        selectOpenOrders = idempotent(session, "SELECT order_id, customer_id, side, order_type, quantity, trigger_price, placed_at, expires_at, "
                + "limit_price FROM " + open + " WHERE symbol = ? AND shard = ?");


        saveLastPrice = session.prepare("UPDATE " + keyspace + ".last_prices SET price = ?, sequence = ?, tick_time = ?, region = ? WHERE symbol = ?");
        selectLastPrice = idempotent(session, "SELECT price, sequence, tick_time, region FROM " + keyspace + ".last_prices WHERE symbol = ?");

        // ---- search (issue #13) ----
        scanLedgerForSearch = idempotent(session, "SELECT " + LEDGER_COLUMNS + " FROM " + ledger);
    }

    /** The {@code USING TIMESTAMP} of a write stamped with {@code at}: microseconds since the epoch, as Cassandra's own. */
    public static long writeTimestamp(Instant at) {
        return TimeUnit.SECONDS.toMicros(at.getEpochSecond()) + TimeUnit.NANOSECONDS.toMicros(at.getNano());
    }

    private static PreparedStatement idempotent(CqlSession session, String cql) {
        return session.prepare(SimpleStatement.newInstance(cql).setIdempotent(true));
    }
}
