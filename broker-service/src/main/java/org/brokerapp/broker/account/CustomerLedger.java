package org.brokerapp.broker.account;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PagingState;
import com.datastax.oss.driver.api.core.cql.Row;
import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.api.TimeInForce;
import org.brokerapp.broker.core.DecisionFence;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.core.Validity;
import org.brokerapp.broker.schema.BrokerCql;
import org.springframework.stereotype.Repository;

/**
 * The customer ledger table: one partition per customer. Every write is a plain LOCAL_QUORUM write
 * by the one party entitled to it: a placement by the owner of the customer's account (which
 * checked the balance in memory), a fill or cancel by the one decider of the order's fate, the
 * matcher holding its symbol ({@code matching.MatchingService}).
 *
 * <p><b>One writer per cell.</b> {@code status} is the placement's (OPEN, or FILLED for a MARKET
 * order executed at once); the home records a fill in {@code fill_price, filled_at, filled_by} and a
 * cancel in {@code closed_at}, cells the placement never writes. So no write ever overwrites
 * another region's, whatever the clocks say, and the order's status is read from which cells are set.
 */
@Repository
public class CustomerLedger {

    private final CqlSession session;
    private final BrokerCql cql;

    public CustomerLedger(CqlSession session, BrokerCql cql) {
        this.session = session;
        this.cql = cql;
    }

    /** Reads the customer's whole partition: their account, as this DC has it now. */
    public Optional<LedgerSnapshot> read(String customerId) {
        List<Row> rows = session.execute(cql.selectLedger.bind(customerId)).all();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Row first = rows.get(0);
        List<Order> orders = new ArrayList<>();
        for (Row row : rows) {
            if (!row.isNull("order_id") && isComplete(row)) {
                orders.add(order(row));
            }
        }
        BigDecimal cash = first.isNull("initial_cash") ? BigDecimal.ZERO : first.getBigDecimal("initial_cash");
        return Optional.of(new LedgerSnapshot(customerId, cash, first.getMap("initial_positions", String.class, Long.class), orders));
    }

    /**
     * Reads up to {@code rows} of the customer's partition from where {@code after} (a previous
     * page's token) left off: one request, however large the partition.
     *
     * @throws IllegalArgumentException if {@code after} is not a token of this customer's list
     */
    public LedgerPage readPage(String customerId, int rows, Optional<String> after) {
        BoundStatement first = cql.selectLedger.bind(customerId).setPageSize(rows);
        BoundStatement statement = after.map(token -> first.setPagingState(pagingState(token), session)).orElse(first);
        // the async form reads one page and fetches no further: the sync ResultSet would fetch the next on iteration
        AsyncResultSet rs;
        try {
            rs = session.executeAsync(statement).toCompletableFuture().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
        List<Order> orders = new ArrayList<>();
        for (Row row : rs.currentPage()) {
            if (!row.isNull("order_id") && isComplete(row)) {
                orders.add(order(row));
            }
        }
        PagingState next = rs.getExecutionInfo().getSafePagingState();
        return new LedgerPage(orders, Optional.ofNullable(next).map(PagingState::toString));
    }

    /** A page token as the driver made it; anything else (not hex, cut short, made up) is refused alike. */
    private static PagingState pagingState(String token) {
        try {
            return PagingState.fromString(token);
        } catch (RuntimeException notOurs) {
            throw new IllegalArgumentException("not a page token", notOurs);
        }
    }

    public Optional<Order> readOrder(String customerId, UUID orderId) {
        return orderOf(session.execute(cql.selectLedgerOrder.bind(customerId, orderId)).one());
    }

    /** Opens an account with its opening balance unless the customer exists already. */
    public boolean open(String customerId, BigDecimal cash, Map<String, Long> positions) {
        return session.execute(cql.openAccount.bind(customerId, cash, positions)).wasApplied();
    }

    /**
     * Writes a new order, OPEN or (a MARKET order executed at once) FILLED: one plain write, stamped
     * with the order's placement time, so writing it again after a timeout writes the same cells.
     * Only the customer's account owner places (see {@code account.Accounts}), and it checked the
     * balance before, in memory: there is no condition and no read.
     */
    public CompletionStage<Void> write(Order o) {
        return session.executeAsync(insert(o)).thenApply(rs -> null);
    }

    /** The write {@link #write} sends, for a batch with another table's row. */
    public BoundStatement insert(Order o) {
        long stamp = BrokerCql.writeTimestamp(o.placedAt());
        return switch (o.status()) {
            case OPEN -> cql.insertOrder.bind(o.customerId(), o.orderId(), o.clientOrderId(), o.symbol(), o.exchange(), o.side().name(),
                    o.type().name(), o.quantity(), o.limitPrice(), o.stopPrice(), o.reservedCash(), o.placedRegion(), o.placedAt(),
                    o.validity().timeInForce().name(), o.validity().expiresAt(), stamp);
            case FILLED -> cql.insertExecutedOrder.bind(o.customerId(), o.orderId(), o.clientOrderId(), o.symbol(), o.exchange(), o.side().name(),
                    o.type().name(), o.quantity(), o.placedRegion(), o.placedAt(), o.fillPrice(), o.filledAt(), o.filledBy(), stamp);
            case CANCELLED, EXPIRED -> throw new IllegalArgumentException("an order is never placed " + o.status() + ": " + o.orderId());
        };
    }

    /** The order as this DC has it now, without blocking the caller; empty if its placement is not here (yet). */
    public CompletionStage<Optional<Order>> readOrderAsync(String customerId, UUID orderId) {
        return session.executeAsync(cql.selectLedgerOrder.bind(customerId, orderId)).thenApply(rs -> orderOf(rs.one()));
    }

    /** Every order in the ledger, paged: a full scan of the table, for the search reindex only. */
    public Stream<Order> everyOrder() {
        return StreamSupport.stream(session.execute(cql.scanLedgerForSearch.bind().setPageSize(500)).spliterator(), false)
                .map(CustomerLedger::orderOf).flatMap(Optional::stream);
    }

    private static Optional<Order> orderOf(Row row) {
        return row == null || row.isNull("status") || !isComplete(row) ? Optional.empty() : Optional.of(order(row));
    }

    /**
     * Records a fill decided by this region's matcher under {@code fence}. The write's timestamp is
     * the order's placement time plus the fence's token: a repeat after a timeout writes the same
     * cell versions, and a later decider's fill (a larger token) wins over an earlier one's in
     * whatever order the two reach a replica. The placement writes none of these cells.
     */
    public CompletionStage<Void> fill(String customerId, UUID orderId, Instant placedAt, BigDecimal price, Instant at, String region,
                                      DecisionFence fence) {
        return session.executeAsync(cql.fillOrder.bind(fencedTimestamp(placedAt, fence), price, at, region, fence.token(), customerId, orderId))
                .thenApply(rs -> null);
    }

    /** Records a cancel decided by this region's matcher under {@code fence}; as {@link #fill}, repeatable and fenced. */
    public CompletionStage<Void> cancel(String customerId, UUID orderId, Instant placedAt, Instant at, DecisionFence fence) {
        return session.executeAsync(cql.cancelOrder.bind(fencedTimestamp(placedAt, fence), at, fence.token(), customerId, orderId))
                .thenApply(rs -> null);
    }

    /** Records the expiry of a DAY or GTD order decided by this region's matcher under {@code fence}; as {@link #cancel}, repeatable and fenced. */
    public CompletionStage<Void> expire(String customerId, UUID orderId, Instant placedAt, Instant at, DecisionFence fence) {
        return session.executeAsync(cql.expireOrder.bind(fencedTimestamp(placedAt, fence), at, fence.token(), customerId, orderId))
                .thenApply(rs -> null);
    }

    private static long fencedTimestamp(Instant placedAt, DecisionFence fence) {
        return BrokerCql.writeTimestamp(placedAt) + fence.token();
    }


    /**
     * A fill is {@code filled_at}, a cancel or expiry {@code closed_at} (which of the two, {@code closed_as}), anything else the
     * placement's status.
     * Both are set only if two deciders decided the same order: a lapsed holder's late write beside
     * its successor's. The decision under the larger fence stands ({@link DecisionFence}); rows
     * decided before fences were recorded count as fence 0, and between equal fences the earlier
     * decision stands.
     */
    private static OrderStatus statusOf(Row r) {
        Instant filled = r.getInstant("filled_at");
        Instant closed = r.getInstant("closed_at");
        if (filled != null && closed != null) {
            long fillFence = r.isNull("fill_fence") ? 0 : r.getLong("fill_fence");
            long cancelFence = r.isNull("cancel_fence") ? 0 : r.getLong("cancel_fence");
            boolean fillStands = fillFence != cancelFence ? fillFence > cancelFence : filled.isBefore(closed);
            return fillStands ? OrderStatus.FILLED : closedAs(r);
        }
        if (filled != null) {
            return OrderStatus.FILLED;
        }
        return closed != null ? closedAs(r) : OrderStatus.valueOf(r.getString("status"));
    }

    /** Closed unfilled: EXPIRED if its decider said so, else CANCELLED (as every close before V6, which wrote no closed_as). */
    private static OrderStatus closedAs(Row r) {
        return "EXPIRED".equals(r.getString("closed_as")) ? OrderStatus.EXPIRED : OrderStatus.CANCELLED;
    }

    /**
     * Whether the order's placement has reached this DC. Cross-DC mutations can arrive out of order
     * (one dropped under load and replayed later as a hint), so a fill may be here before the row
     * it fills: such a row is not an order yet, here.
     */
    private static boolean isComplete(Row r) {
        return !r.isNull("side") && !r.isNull("order_type") && !r.isNull("symbol") && !r.isNull("placed_at");
    }

    private static Order order(Row r) {
        OrderStatus status = statusOf(r);
        boolean filled = status == OrderStatus.FILLED;
        return new Order(r.getUuid("order_id"), r.getString("customer_id"), r.getString("client_order_id"), r.getString("symbol"),
                r.getString("exchange"), Side.valueOf(r.getString("side")), OrderType.valueOf(r.getString("order_type")), r.getLong("quantity"),
                r.getBigDecimal("limit_price"), r.getBigDecimal("stop_price"), r.getBigDecimal("reserved_cash"),
                status, r.getString("placed_region"), r.getInstant("placed_at"),
                filled ? r.getBigDecimal("fill_price") : null, filled ? r.getInstant("filled_at") : null, filled ? r.getString("filled_by") : null,
                status.closedUnfilled() ? r.getInstant("closed_at") : null,
                Validity.of(r.isNull("time_in_force") ? null : TimeInForce.valueOf(r.getString("time_in_force")), r.getInstant("expires_at")));
    }
}
