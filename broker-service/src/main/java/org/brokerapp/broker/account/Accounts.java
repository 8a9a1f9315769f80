package org.brokerapp.broker.account;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.deciding.AccountOwnership;
import org.brokerapp.broker.deciding.CustomerPartitions;
import org.brokerapp.broker.deciding.OwnedCustomers;
import org.brokerapp.broker.security.SecurityProperties;
import org.brokerapp.broker.system.BrokerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The accounts this broker instance owns: the customers homed in this region whose partition of
 * the {@code customers} topic is assigned here and whose lease is current ({@link AccountOwnership}).
 * Each is read from the ledger once, on first use after this instance took its partition over, and
 * then kept in memory: a placement checks and reserves here, under the account's monitor, and the
 * ledger is only written, never read, on its way. So one customer's placements are serialised by
 * one owner, in one region, and no balance can go negative however many regions they come from.
 */
@Component
public class Accounts implements OwnedCustomers {

    private static final Logger log = LoggerFactory.getLogger(Accounts.class);

    private final CustomerLedger ledger;
    private final AccountLimits limits;
    private final Duration closedOrderMemory;
    private final LongSupplier nanoClock;
    private final Map<String, Account> loaded = new ConcurrentHashMap<>();
    private volatile AccountOwnership ownership;

    @Autowired
    public Accounts(CustomerLedger ledger, BrokerProperties properties, SecurityProperties security) {
        this(ledger, new AccountLimits(properties.matching().maxOpenOrdersPerCustomer(), security.ordersPerSecond()),
                properties.matching().closedOrderMemory());
    }

    public Accounts(CustomerLedger ledger, AccountLimits limits, Duration closedOrderMemory) {
        this(ledger, limits, closedOrderMemory, System::nanoTime);
    }

    /** As the broker runs it, with {@code nanoClock} for the order rate's clock (a test's own). */
    public Accounts(CustomerLedger ledger, AccountLimits limits, Duration closedOrderMemory, LongSupplier nanoClock) {
        this.ledger = ledger;
        this.limits = limits;
        this.closedOrderMemory = closedOrderMemory;
        this.nanoClock = nanoClock;
    }

    /** Lets orders closed longer than {@code broker.matching.closed-order-memory} ago leave their owner's memory. */
    @Scheduled(fixedDelayString = "${broker.matching.settle-every:5s}")
    void forgetClosedOrders() {
        long cutoff = System.nanoTime() - closedOrderMemory.toNanos();
        for (Account account : loaded.values()) {
            synchronized (account) {
                account.forgetClosedBefore(cutoff);
            }
        }
    }

    /** How many orders the owned accounts keep in memory (open, unsettled, closed lately). */
    public int ordersInMemory() {
        int count = 0;
        for (Account account : loaded.values()) {
            synchronized (account) {
                count += account.ordersInMemory();
            }
        }
        return count;
    }

    /** How many of one customer's orders their owner holds in memory: 0 when the account is not loaded here. */
    int ordersInMemory(String customerId) {
        Account account = loaded.get(customerId);
        if (account == null) {
            return 0;
        }
        synchronized (account) {
            return account.ordersInMemory();
        }
    }

    @Override
    public void ownedBy(AccountOwnership ownership) {
        this.ownership = ownership;
    }

    /** Whether this instance decides the customer's balances now (its partition's lease is current). */
    public boolean owns(String customerId) {
        AccountOwnership o = ownership;
        return o != null && o.covers(customerId);
    }

    /** Another instance of this region that owns the customer, as its base URL; empty if none does, or this one does. */
    public Optional<String> ownerUrl(String customerId) {
        AccountOwnership o = ownership;
        return o == null ? Optional.empty() : o.holderUrl(customerId);
    }

    /**
     * Runs {@code step} on the customer's account under its monitor; refuses (503, retry) if this
     * instance does not own the customer, or stopped owning it while the account was being read.
     */
    public <T> T withAccount(String customerId, Function<AccountView, T> step) {
        Account account = loaded.computeIfAbsent(customerId, this::load);
        synchronized (account) {
            if (account.isRetired() || !owns(customerId)) {
                loaded.remove(customerId, account);
                throw new OrderProblem.NotOwner(customerId);
            }
            return step.apply(new AccountView(account, limits, ledger, nanoClock));
        }
    }

    /**
     * Applies a fill its decider reported to an account this instance owns, if it can be a fill of
     * the customer's order ({@link FillCheck}). An account not in memory is read first: the report
     * may arrive before the fill's own write reaches this DC, and an account read later could miss it.
     *
     * @param reported the order as the fill's event describes it (FILLED, with its side, quantity and price)
     */
    public Report filled(Order reported) {
        return applyOwned(reported.customerId(), account -> account.filled(reported.orderId(), reported.side(), reported.quantity(),
                reported.fillPrice(), reported.filledAt(), reported.filledBy()));
    }

    /**
     * A MARKET order's execution its owner was answered with (here, or by the region that executed
     * it): applied as its fill and the order's write settled, under one monitor. Why it is not this
     * order's fill, if it is not: its reservation then stays until the ledger says what happened.
     */
    public Optional<String> answered(Order execution) {
        return withAccount(execution.customerId(), account -> {
            Optional<String> notThisOrder = account.filled(execution);
            if (notThisOrder.isEmpty()) {
                account.written(execution.orderId());
            }
            return notThisOrder;
        });
    }

    /** As {@link #filled}, for a cancel or an expiry ({@code as}). */
    public Report closedUnfilled(String customerId, UUID orderId, OrderStatus as, Instant at) {
        return applyOwned(customerId, account -> {
            account.closedUnfilled(orderId, as, at);
            return Optional.empty();
        });
    }

    /**
     * A report applied under the account's monitor, as a placement is: the ownership may have moved
     * since the caller asked, and a copy read or kept while another instance owns the customer would
     * miss that owner's placements if this instance took the customer back later.
     */
    private Report applyOwned(String customerId, Function<Account, Optional<String>> report) {
        if (!owns(customerId)) {
            return new Report.NotOwned();
        }
        Account account = loaded.computeIfAbsent(customerId, this::load);
        synchronized (account) {
            if (account.isRetired() || !owns(customerId)) {
                loaded.remove(customerId, account);
                return new Report.NotOwned();
            }
            return report.apply(account).<Report>map(Report.Refused::new).orElseGet(Report.Applied::new);
        }
    }

    /**
     * The balances this owner holds in memory for the customer, beside what the ledger folds to
     * (the seam audit): empty {@code owner} if the account is not in memory here (nothing to differ).
     *
     * @throws OrderProblem.NotOwner (503) if this instance does not own the customer: the owner answers
     */
    public Audit audit(String customerId) {
        if (!owns(customerId)) {
            throw new OrderProblem.NotOwner(customerId);
        }
        Holdings ledgerHoldings = ledger.read(customerId).map(LedgerSnapshot::holdings)
                .orElseThrow(() -> new OrderProblem.NotFound("no account for customer " + customerId));
        Account account = loaded.get(customerId);
        if (account == null) {
            return new Audit(customerId, null, List.of(), ledgerHoldings, true);
        }
        Holdings mine;
        List<Pending> pending;
        synchronized (account) {
            mine = account.holdings();
            pending = account.pending();
        }
        // an order of unknown outcome holds back what it may cost, here only until its write shows in the ledger (or it settles)
        Holdings expected = ledgerHoldings;
        for (Pending unknown : pending) {
            if (ledger.readOrder(customerId, unknown.orderId()).isEmpty()) {
                expected = expected.holdingBack(unknown.reservedCash(), unknown.symbol(), unknown.reservedShares());
            }
        }
        return new Audit(customerId, mine, pending, ledgerHoldings, mine.agreesWith(expected));
    }

    /**
     * An owner's account beside the ledger's: {@code owner} null when it is not in memory. They agree
     * when the owner holds what the ledger folds to, plus what its orders of unknown outcome
     * ({@code pending}) not yet in the ledger hold back.
     */
    public record Audit(String customerId, Holdings owner, List<Pending> pending, Holdings ledger, boolean agrees) {
    }

    /** Copies of customers in newly taken partitions, should any be left: each is read again from the ledger on first use. */
    @Override
    public void forget(Collection<Integer> partitions, int partitionCount) {
        loaded.values().removeIf(a -> partitions.contains(CustomerPartitions.of(a.customerId(), partitionCount)));
    }

    /**
     * Brings an owned account up to what the ledger here already decided. Fills and cancels reach the
     * owner as events, a little after their rows: a customer who saw a fill (the API reads the
     * ledger) and at once sells its shares must not be refused for the gap. Only a refusal pays for
     * this read, never an accepted placement.
     */
    public void catchUp(String customerId) {
        Account account = loaded.get(customerId);
        if (account == null) {
            return;
        }
        Optional<LedgerSnapshot> snapshot = ledger.read(customerId);
        if (snapshot.isEmpty()) {
            return;
        }
        synchronized (account) {
            int closed = account.catchUp(snapshot.get());
            if (closed > 0) {
                log.debug("account {}: {} fills or cancels applied from the ledger ahead of their events", customerId, closed);
            }
        }
    }

    /**
     * The customer's orders whose outcome is not known yet, if this instance owns the customer (only
     * the owner knows of them); an owned account not in memory has none.
     */
    public Optional<List<Pending>> pending(String customerId) {
        if (!owns(customerId)) {
            return Optional.empty();
        }
        Account account = loaded.get(customerId);
        if (account == null) {
            return Optional.of(List.of());
        }
        synchronized (account) {
            return Optional.of(account.pending());
        }
    }

    /** Every owned order whose outcome has been unknown for longer than {@code age}, and that is not being written now. */
    public List<Order> unsettledFor(Duration age) {
        Instant before = Instant.now().minus(age);
        List<Order> due = new ArrayList<>();
        for (Account account : loaded.values()) {
            synchronized (account) {
                if (!account.isRetired() && owns(account.customerId())) {
                    due.addAll(account.unsettledBefore(before));
                }
            }
        }
        return due;
    }

    /** How many owned orders' outcomes are unknown now (the ops gauge). */
    public int unsettledCount() {
        int count = 0;
        for (Account account : loaded.values()) {
            synchronized (account) {
                count += account.pendingCount();
            }
        }
        return count;
    }

    /** An order's write ended (acknowledged, failed or given up); see {@link AccountView#reserve}. */
    public void writeEnded(String customerId, UUID orderId) {
        Account account = loaded.get(customerId);
        if (account != null) {
            synchronized (account) {
                account.writeEnded(orderId);
                account.notifyAll();
            }
        }
    }

    /**
     * Gives up the accounts of customers in {@code partitions}: no placement starts on them any
     * more, and this returns once the writes in flight on them ended (at most {@code max}), so the
     * next owner, which reads the ledger, sees every reservation made here.
     */
    @Override
    public void retire(Collection<Integer> partitions, int partitionCount, Duration max) {
        List<Account> leaving = loaded.values().stream()
                .filter(a -> partitions.contains(CustomerPartitions.of(a.customerId(), partitionCount))).toList();
        long deadline = System.nanoTime() + max.toNanos();
        for (Account account : leaving) {
            synchronized (account) {
                account.retire();
                while (account.writesInFlight() > 0 && deadline - System.nanoTime() > 0) {
                    try {
                        account.wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                if (account.writesInFlight() > 0) {
                    log.warn("account {} handed over with {} writes still in flight", account.customerId(), account.writesInFlight());
                }
            }
            loaded.remove(account.customerId(), account);
        }
        if (!leaving.isEmpty()) {
            log.info("handed over {} accounts of customer partitions {}", leaving.size(), partitions);
        }
    }

    private Account load(String customerId) {
        return ledger.read(customerId).map(Account::of)
                .orElseThrow(() -> new OrderProblem.Invalid("no account for customer " + customerId));
    }
}
