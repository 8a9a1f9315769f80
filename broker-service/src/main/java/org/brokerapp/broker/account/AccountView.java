package org.brokerapp.broker.account;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongSupplier;

import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderProblem;

/** What a step may do with an account while it holds its monitor. */
public final class AccountView {

    private final Account account;
    private final AccountLimits limits;
    private final CustomerLedger ledger;
    private final LongSupplier nanoClock;

    AccountView(Account account, AccountLimits limits, CustomerLedger ledger, LongSupplier nanoClock) {
        this.account = account;
        this.limits = limits;
        this.ledger = ledger;
        this.nanoClock = nanoClock;
    }

    /**
     * The order this id names, if the customer placed it: from memory, or, for an order closed
     * long enough ago to have left it, from the ledger (a new id reads nothing, see {@link PlacedOrderIds}).
     */
    public Optional<Order> find(UUID orderId) {
        Optional<Order> inMemory = account.find(orderId);
        if (inMemory.isPresent() || !account.mayHavePlaced(orderId)) {
            return inMemory;
        }
        return ledger.readOrder(account.customerId(), orderId);
    }

    /** Whether the customer may have placed the order before, though it is not found here (its row not in this DC yet). */
    public boolean mayHavePlaced(UUID orderId) {
        return account.mayHavePlaced(orderId);
    }

    public boolean isUnsettled(UUID orderId) {
        return account.isUnsettled(orderId);
    }

    /**
     * Reserves a new order, or throws: 429 past the customer's order rate, 422 with the shortfall or when the customer
     * holds the most open orders allowed. Only a reserved order counts against the rate. A write is then in flight
     * until {@link Accounts#writeEnded}.
     */
    public void reserve(Order order, BigDecimal maxCost) {
        if (!account.admitsNewOrder(nanoClock.getAsLong(), limits.ordersPerSecond())) {
            throw new OrderProblem.TooFast(account.customerId() + " placed " + limits.ordersPerSecond()
                    + " orders in the last second, the most allowed across every region; retry in a second");
        }
        int maxOpenOrders = limits.maxOpenOrders();
        if (account.openOrders() >= maxOpenOrders) {
            throw new OrderProblem.TooManyOpen(account.customerId() + " holds " + account.openOrders()
                    + " open orders, the most allowed; one must fill or be cancelled first");
        }
        Optional<String> shortfall = account.reserve(order, maxCost);
        if (shortfall.isPresent()) {
            throw new OrderProblem.Insufficient(shortfall.get());
        }
        account.countNewOrder();
    }

    /**
     * A retried write of an unsettled order: in flight again. Refused (503, retry) while the
     * order's first write is still going on, so an order is never written twice at once.
     */
    public void rewrite(UUID orderId) {
        if (account.isBeingWritten(orderId)) {
            throw new OrderProblem.NotOwner(account.customerId(), "order " + orderId + " is still being placed; retry with the same clientOrderId");
        }
        account.reserveAgain(orderId);
    }

    public void written(UUID orderId) {
        account.written(orderId);
    }

    public void refused(UUID orderId) {
        account.refused(orderId);
    }

    /** A MARKET order's execution, here or in the region that answered for it: why it is not this order's fill, if it is not. */
    Optional<String> filled(Order execution) {
        return account.filled(execution.orderId(), execution.side(), execution.quantity(), execution.fillPrice(), execution.filledAt(),
                execution.filledBy());
    }

    public Holdings holdings() {
        return account.holdings();
    }

    public BigDecimal availableCash() {
        return account.availableCash();
    }
}
