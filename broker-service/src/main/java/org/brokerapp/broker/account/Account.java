package org.brokerapp.broker.account;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;

/**
 * One customer's balances as their owner holds them in memory: settled cash and positions, what
 * open orders hold back, the open and unsettled orders themselves, and those closed lately (a
 * retry comes soon after its first attempt). An order closed longer ago leaves memory; a retry of
 * it is recognised by {@link PlacedOrderIds} and answered from the ledger. Built once from the
 * ledger partition, then kept current by the owner's own placements and by the fills and cancels
 * the deciding matchers report. Not thread-safe: its owner ({@link Accounts}) guards each account
 * with its monitor.
 *
 * <p>A fill never makes available cash smaller than its order's reservation did (a BUY reserves
 * at least what it pays), so until a fill is reported the account is conservative, never short.
 *
 * <p>A fill can be reported before its order's own write is known to be durable: the owner
 * publishes the order's event while its rows are being written, and the write may then fail. Such
 * a fill takes what the order pays at once (its reservation goes, a BUY's cash and a SELL's shares
 * leave) but gives what it brings (a BUY's shares, a SELL's cash) only once the order's write is
 * durable ({@link #written}): should the write never land, the ledger holds no such order, and
 * nothing it brought can have been spent.
 */
final class Account {

    private final String customerId;
    private BigDecimal cash;
    private final Map<String, Long> positions;
    private BigDecimal reservedCash = BigDecimal.ZERO;
    private final Map<String, Long> reservedShares = new HashMap<>();
    /** Open and unsettled orders, and those closed within the retention (see {@link #forgetClosedBefore}). */
    private final Map<UUID, Order> orders = new HashMap<>();
    /** Every order id the customer may have placed: whether a placement not in {@link #orders} is a retry. */
    private final PlacedOrderIds placed = new PlacedOrderIds();
    /** Orders as they closed, oldest first, with when (System.nanoTime): the order they leave memory in. */
    private final ArrayDeque<Closed> closed = new ArrayDeque<>();
    /** Orders whose write was started and whose outcome is not known yet, and since when: they keep their reservation. */
    private final Map<UUID, Instant> unsettled = new HashMap<>();
    /** Orders whose write is going on now: a retry must not write them a second time at once. */
    private final Set<UUID> writing = new HashSet<>();
    /** Fills of unsettled orders: what they bring waits until the order's write is durable. */
    private final Map<UUID, Order> creditsAwaitingWrite = new HashMap<>();
    private int writesInFlight;
    /** Orders holding a reservation now (open, or placed and not yet known refused). */
    private int openOrders;
    private final OrderRate rate = new OrderRate();
    private boolean retired;

    private Account(String customerId, BigDecimal cash, Map<String, Long> positions) {
        this.customerId = customerId;
        this.cash = cash;
        this.positions = new HashMap<>(positions);
    }

    static Account of(LedgerSnapshot snapshot) {
        Account account = new Account(snapshot.customerId(), snapshot.initialCash(), snapshot.initialPositions());
        for (Order order : snapshot.orders()) {
            account.placed.add(order.orderId());
            switch (order.status()) {
                case OPEN -> {
                    account.orders.put(order.orderId(), order);
                    account.hold(order);
                }
                case FILLED -> {
                    account.debit(order, order.fillPrice());
                    account.credit(order, order.fillPrice());
                }
                case CANCELLED, EXPIRED -> {
                }
            }
        }
        return account;
    }

    String customerId() {
        return customerId;
    }

    /** Whether a new order may be placed: false if the customer placed {@code perSecond} new orders in the last second. */
    boolean admitsNewOrder(long nowNanos, int perSecond) {
        return rate.admits(nowNanos, perSecond);
    }

    /** Counts a reserved new order against the customer's rate. */
    void countNewOrder() {
        rate.take();
    }

    /** The order if it is in memory: open, unsettled or closed lately. */
    Optional<Order> find(UUID orderId) {
        return Optional.ofNullable(orders.get(orderId));
    }

    /** Whether the customer may have placed the order: false is certain (a new order), true may be a retry of one no longer in memory. */
    boolean mayHavePlaced(UUID orderId) {
        return placed.mayContain(orderId);
    }

    /** Lets closed orders that closed before {@code cutoffNanos} leave memory (an unsettled one stays until it is settled). */
    void forgetClosedBefore(long cutoffNanos) {
        while (!closed.isEmpty() && closed.peekFirst().atNanos() - cutoffNanos < 0) {
            UUID id = closed.pollFirst().orderId();
            Order order = orders.get(id);
            if (order != null && !order.isOpen() && !unsettled.containsKey(id)) {
                orders.remove(id);
            } else if (order != null && !order.isOpen()) {
                closed.addLast(new Closed(id, System.nanoTime()));
            }
        }
    }

    /** How many orders this account keeps in memory now. */
    int ordersInMemory() {
        return orders.size();
    }

    boolean isUnsettled(UUID orderId) {
        return unsettled.containsKey(orderId);
    }

    /** Orders still unsettled that were reserved before {@code before} and are not being written now: due to be settled. */
    List<Order> unsettledBefore(Instant before) {
        return unsettled.entrySet().stream()
                .filter(e -> e.getValue().isBefore(before) && !writing.contains(e.getKey()))
                .map(e -> orders.get(e.getKey()))
                .filter(o -> o != null && o.isOpen())
                .toList();
    }

    /** The open orders whose outcome is not known yet, and what each holds back. */
    /** How many orders {@link #pending()} lists, without listing them (a gauge reads it on every scrape). */
    int pendingCount() {
        int count = 0;
        for (UUID id : unsettled.keySet()) {
            Order order = orders.get(id);
            if (order != null && order.isOpen()) {
                count++;
            }
        }
        return count;
    }

    List<Pending> pending() {
        return unsettled.entrySet().stream()
                .map(e -> Map.entry(orders.get(e.getKey()), e.getValue()))
                .filter(e -> e.getKey() != null && e.getKey().isOpen())
                .map(e -> Pending.of(e.getKey(), e.getValue()))
                .sorted(Comparator.comparing(Pending::since))
                .toList();
    }

    /**
     * Holds back what {@code order} may cost (cash for a BUY, shares for a SELL) if the customer has
     * it, and counts a write in flight until {@link #written} or {@link #refused}.
     *
     * @return the shortfall's description, or empty if the order is reserved
     */
    Optional<String> reserve(Order order, BigDecimal maxCost) {
        if (order.side() == Side.BUY && availableCash().compareTo(maxCost) < 0) {
            return Optional.of("buying " + order.quantity() + " " + order.symbol() + " needs " + maxCost.toPlainString()
                    + " available cash; available is " + availableCash().toPlainString());
        }
        if (order.side() == Side.SELL && availableShares(order.symbol()) < order.quantity()) {
            return Optional.of("selling " + order.quantity() + " " + order.symbol() + " needs that many available shares; available: "
                    + availableShares(order.symbol()));
        }
        Order reserving = order.side() == Side.BUY ? withReservation(order, maxCost) : order;
        orders.put(order.orderId(), reserving);
        placed.add(order.orderId());
        hold(reserving);
        unsettled.put(order.orderId(), Instant.now());
        writing.add(order.orderId());
        writesInFlight++;
        return Optional.empty();
    }

    /** Whether the order's write is going on now (a retry then waits for its outcome). */
    boolean isBeingWritten(UUID orderId) {
        return writing.contains(orderId);
    }

    /** An unsettled order's write is tried again: one more write in flight. */
    void reserveAgain(UUID orderId) {
        writing.add(orderId);
        writesInFlight++;
    }

    /** The write of a reserved order ended (acknowledged, failed or given up). */
    void writeEnded(UUID orderId) {
        writing.remove(orderId);
        writesInFlight--;
    }

    /** The reserved order's write is durable: it is an order now, and a fill reported before this brings what it bought or sold. */
    void written(UUID orderId) {
        unsettled.remove(orderId);
        Order filled = creditsAwaitingWrite.remove(orderId);
        if (filled != null) {
            credit(filled, filled.fillPrice());
        }
    }

    /** The reserved order was refused or surely never written: its reservation goes. */
    void refused(UUID orderId) {
        Order order = orders.remove(orderId);
        unsettled.remove(orderId);
        creditsAwaitingWrite.remove(orderId);
        if (order != null && order.isOpen()) {
            release(order);
        }
    }

    /**
     * A fill reported by its decider (or executed here): the reservation goes, cash and shares move.
     * Repeats change nothing. An order whose write is not yet known durable pays now and is paid
     * once it is (see the class comment); it stays unsettled, so a retry still writes it. A report
     * that cannot be a fill of this order ({@link FillCheck}) changes nothing.
     *
     * @return why the report was refused; empty if it was applied, or changed nothing (an order
     *         unknown here or closed already)
     */
    Optional<String> filled(UUID orderId, Side side, long quantity, BigDecimal price, Instant at, String by) {
        Order order = orders.get(orderId);
        if (order == null || !order.isOpen()) {
            return Optional.empty();
        }
        Optional<String> refusal = FillCheck.refusal(order, side, quantity, price);
        if (refusal.isPresent()) {
            return refusal;
        }
        release(order);
        Order filled = new Order(order.orderId(), order.customerId(), order.clientOrderId(), order.symbol(), order.exchange(), order.side(),
                order.type(), order.quantity(), order.limitPrice(), order.stopPrice(), order.reservedCash(), OrderStatus.FILLED,
                order.placedRegion(), order.placedAt(), price, at, by, null, order.validity());
        orders.put(orderId, filled);
        closed.addLast(new Closed(orderId, System.nanoTime()));
        debit(filled, price);
        if (unsettled.containsKey(orderId)) {
            creditsAwaitingWrite.put(orderId, filled);
        } else {
            credit(filled, price);
        }
        return Optional.empty();
    }

    /** A cancel or expiry ({@code as}) reported by its decider: the reservation goes. Repeats change nothing. */
    void closedUnfilled(UUID orderId, OrderStatus as, Instant at) {
        if (!as.closedUnfilled()) {
            throw new IllegalArgumentException(as + " is not a close without a fill");
        }
        Order order = orders.get(orderId);
        if (order == null || !order.isOpen()) {
            return;
        }
        release(order);
        orders.put(orderId, new Order(order.orderId(), order.customerId(), order.clientOrderId(), order.symbol(), order.exchange(), order.side(),
                order.type(), order.quantity(), order.limitPrice(), order.stopPrice(), order.reservedCash(), as,
                order.placedRegion(), order.placedAt(), null, null, null, at, order.validity()));
        closed.addLast(new Closed(orderId, System.nanoTime()));
        unsettled.remove(orderId);
    }

    /**
     * Applies the decisions the ledger already holds but whose reports have not reached this owner
     * yet: a fill or cancel is final once written, and its report would change the account the same
     * way (repeats change nothing).
     *
     * @return how many orders this closed
     */
    int catchUp(LedgerSnapshot ledger) {
        int closed = 0;
        for (Order decided : ledger.orders()) {
            Order mine = orders.get(decided.orderId());
            if (mine == null || !mine.isOpen()) {
                continue;
            }
            switch (decided.status()) {
                case FILLED -> {
                    if (filled(decided.orderId(), decided.side(), decided.quantity(), decided.fillPrice(), decided.filledAt(),
                            decided.filledBy()).isPresent()) {
                        continue; // the ledger's row is not a fill of this order: the audit reports it
                    }
                }
                case CANCELLED, EXPIRED -> closedUnfilled(decided.orderId(), decided.status(), decided.closedAt());
                case OPEN -> {
                    continue;
                }
            }
            closed++;
        }
        return closed;
    }

    int writesInFlight() {
        return writesInFlight;
    }

    /** This instance no longer owns the customer: no placement may start on this copy. */
    void retire() {
        retired = true;
    }

    boolean isRetired() {
        return retired;
    }

    Holdings holdings() {
        Map<String, Long> owned = new HashMap<>(positions);
        owned.values().removeIf(q -> q == 0);
        return new Holdings(cash.setScale(Math.max(2, cash.scale()), RoundingMode.UNNECESSARY), reservedCash, owned, reservedShares);
    }

    BigDecimal availableCash() {
        return cash.subtract(reservedCash);
    }

    long availableShares(String symbol) {
        return positions.getOrDefault(symbol, 0L) - reservedShares.getOrDefault(symbol, 0L);
    }

    int openOrders() {
        return openOrders;
    }

    private void hold(Order open) {
        openOrders++;
        if (open.side() == Side.BUY) {
            reservedCash = reservedCash.add(open.reservedCash());
        } else {
            reservedShares.merge(open.symbol(), open.quantity(), Long::sum);
        }
    }

    private void release(Order open) {
        openOrders--;
        if (open.side() == Side.BUY) {
            reservedCash = reservedCash.subtract(open.reservedCash());
        } else {
            reservedShares.merge(open.symbol(), -open.quantity(), Long::sum);
            reservedShares.values().removeIf(q -> q == 0);
        }
    }

    /** What a fill takes: a BUY's cash, a SELL's shares. */
    private void debit(Order filled, BigDecimal price) {
        if (filled.side() == Side.BUY) {
            cash = cash.subtract(price.multiply(BigDecimal.valueOf(filled.quantity())));
        } else {
            positions.merge(filled.symbol(), -filled.quantity(), Long::sum);
        }
    }

    /** What a fill brings: a BUY's shares, a SELL's cash. */
    private void credit(Order filled, BigDecimal price) {
        if (filled.side() == Side.BUY) {
            positions.merge(filled.symbol(), filled.quantity(), Long::sum);
        } else {
            cash = cash.add(price.multiply(BigDecimal.valueOf(filled.quantity())));
        }
    }

    private record Closed(UUID orderId, long atNanos) {
    }

    private static Order withReservation(Order o, BigDecimal reserved) {
        return new Order(o.orderId(), o.customerId(), o.clientOrderId(), o.symbol(), o.exchange(), o.side(), o.type(), o.quantity(),
                o.limitPrice(), o.stopPrice(), reserved, o.status(), o.placedRegion(), o.placedAt(), o.fillPrice(), o.filledAt(),
                o.filledBy(), o.closedAt(), o.validity());
    }
}
