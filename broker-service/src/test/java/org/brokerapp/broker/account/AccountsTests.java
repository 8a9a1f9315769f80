package org.brokerapp.broker.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.deciding.AccountOwnership;
import org.brokerapp.broker.deciding.CustomerPartitions;
import org.junit.jupiter.api.Test;

/**
 * The owner's copies of accounts across a hand-over. A copy read or kept while another instance
 * owns the customer would miss that owner's placements should this instance take the customer
 * back: a fill report racing a hand-over must not leave one behind, and a partition taken (back)
 * starts from the ledger. The ledger and the lease holder are stand-ins; hand-overs between real
 * instances are in {@code CrashAndRebalanceIT}.
 */
class AccountsTests {

    private static final int PARTITIONS = 16;
    private static final Instant T = Instant.parse("2026-11-25T12:00:00Z");

    private final CustomerLedger ledger = mock(CustomerLedger.class);
    private final AccountOwnership ownership = mock(AccountOwnership.class);
    private final Accounts accounts = new Accounts(ledger, new AccountLimits(10_000, 1_000), Duration.ofMinutes(10));

    AccountsTests() {
        accounts.ownedBy(ownership);
    }

    private static LedgerSnapshot cash(String amount) {
        return new LedgerSnapshot("carol", new BigDecimal(amount), Map.of(), List.of());
    }

    @Test
    void aFillReportedWhileAnotherInstanceOwnsTheCustomerIsLeftForItAndReadsNothing() {
        when(ownership.covers("carol")).thenReturn(false);

        assertThat(accounts.filled(fill())).isInstanceOf(Report.NotOwned.class);
        assertThat(accounts.closedUnfilled("carol", UUID.randomUUID(), OrderStatus.CANCELLED, T)).isInstanceOf(Report.NotOwned.class);

        verifyNoInteractions(ledger);
    }

    @Test
    void aCopyKeptFromBeforeAHandOverIsReadAgainWhenItsPartitionIsTakenBack() {
        when(ownership.covers("carol")).thenReturn(true);
        when(ledger.read("carol")).thenReturn(Optional.of(cash("1000.00")), Optional.of(cash("400.00")));
        assertThat(accounts.withAccount("carol", AccountView::availableCash)).isEqualByComparingTo("1000.00");

        // meanwhile another instance owned carol and placed orders; her partition comes back here
        accounts.forget(List.of(CustomerPartitions.of("carol", PARTITIONS)), PARTITIONS);

        assertThat(accounts.withAccount("carol", AccountView::availableCash)).isEqualByComparingTo("400.00");
    }

    @Test
    void aFillOfAnOwnedCustomerIsAppliedAndTaken() {
        when(ownership.covers("carol")).thenReturn(true);
        when(ledger.read("carol")).thenReturn(Optional.of(cash("1000.00")));

        assertThat(accounts.filled(fill())).isInstanceOf(Report.Applied.class);
    }

    /** The seam audit: an owner that booked a fill the ledger does not hold disagrees with it; one in step agrees. */
    @Test
    void theAuditComparesTheOwnersAccountWithTheLedger() {
        when(ownership.covers("carol")).thenReturn(true);
        Order open = new Order(UUID.randomUUID(), "carol", "c-1", "IBM", "NYSE",
                Side.BUY, OrderType.LIMIT, 2, new BigDecimal("10.00"), null, new BigDecimal("20.00"),
                OrderStatus.OPEN, "us-east-1", T, null, null, null, null);
        when(ledger.read("carol")).thenReturn(Optional.of(new LedgerSnapshot("carol", new BigDecimal("1000.00"), Map.of(), List.of(open))));
        assertThat(accounts.audit("carol").owner()).as("not in memory: nothing to differ").isNull();
        accounts.withAccount("carol", AccountView::availableCash);

        assertThat(accounts.audit("carol").agrees()).isTrue();

        accounts.filled(new Order(open.orderId(), "carol", "c-1", "IBM", "NYSE", open.side(), open.type(), 2,
                open.limitPrice(), null, open.reservedCash(), OrderStatus.FILLED, "us-east-1", T, new BigDecimal("9.50"), T,
                "us-east-1", null));
        Accounts.Audit audit = accounts.audit("carol");
        assertThat(audit.agrees()).as(audit.toString()).isFalse();
        assertThat(audit.owner().positions()).containsEntry("IBM", 2L);
        assertThat(audit.ledger().positions()).isEmpty();
    }

    /**
     * An order of unknown outcome holds back its cash at the owner alone until its write shows in the
     * ledger: the audit counts it beside the ledger then, and not twice once the ledger holds it.
     */
    @Test
    void theAuditCountsWhatOrdersOfUnknownOutcomeHoldBack() {
        when(ownership.covers("carol")).thenReturn(true);
        Order unknown = new Order(UUID.randomUUID(), "carol", "c-1", "IBM", "NYSE",
                Side.BUY, OrderType.MARKET, 2, null, null, BigDecimal.ZERO,
                OrderStatus.OPEN, "us-east-1", T, null, null, null, null);
        when(ledger.read("carol")).thenReturn(Optional.of(cash("1000.00")));
        accounts.withAccount("carol", a -> {
            a.reserve(unknown, new BigDecimal("40.00"));
            return null;
        });
        when(ledger.readOrder("carol", unknown.orderId())).thenReturn(Optional.empty());

        Accounts.Audit notInTheLedger = accounts.audit("carol");

        assertThat(notInTheLedger.agrees()).as(notInTheLedger.toString()).isTrue();
        assertThat(notInTheLedger.pending()).extracting(Pending::orderId).containsExactly(unknown.orderId());
        // the same order's write, found in the ledger but not folded there: the owner holds 40.00 the ledger does not
        when(ledger.readOrder("carol", unknown.orderId())).thenReturn(Optional.of(unknown));
        assertThat(accounts.audit("carol").agrees()).isFalse();
    }

    /** Bounded state (#55): past the cap of open orders a placement is refused, and a fill makes room again. */
    @Test
    void aCustomerHoldsAtMostTheCapOfOpenOrders() {
        Accounts capped = carolsOwner(new Accounts(ledger, new AccountLimits(2, 1_000), Duration.ofMinutes(10)));
        List<Order> orders = openBuys(3);
        reserve(capped, orders.get(0));
        reserve(capped, orders.get(1));

        assertThatThrownBy(() -> reserve(capped, orders.get(2))).isInstanceOf(OrderProblem.TooManyOpen.class);

        capped.filled(filledAt(orders.get(0), "1.00"));
        reserve(capped, orders.get(2));
    }

    /** {@code accounts} as the owner of carol (1,000 cash). */
    private Accounts carolsOwner(Accounts accounts) {
        accounts.ownedBy(ownership);
        when(ownership.covers("carol")).thenReturn(true);
        when(ledger.read("carol")).thenReturn(Optional.of(cash("1000.00")));
        return accounts;
    }

    /** {@code n} new BUY LIMITs of carol's, 1 share at 1.00 each. */
    private static List<Order> openBuys(int n) {
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            orders.add(new Order(UUID.randomUUID(), "carol", "c-" + i, "IBM", "NYSE", Side.BUY,
                    OrderType.LIMIT, 1, BigDecimal.ONE, null, BigDecimal.ONE, OrderStatus.OPEN,
                    "us-east-1", T, null, null, null, null));
        }
        return orders;
    }

    private static void reserve(Accounts accounts, Order order) {
        accounts.withAccount(order.customerId(), a -> {
            a.reserve(order, BigDecimal.ONE);
            return null;
        });
    }

    private static Order filledAt(Order o, String price) {
        return new Order(o.orderId(), o.customerId(), o.clientOrderId(), o.symbol(), o.exchange(), o.side(), o.type(),
                o.quantity(), o.limitPrice(), null, o.reservedCash(), OrderStatus.FILLED, o.placedRegion(), o.placedAt(),
                new BigDecimal(price), T, "us-east-1", null);
    }

    /** A fill of an order the owner does not hold (it was never placed, or closed): applied as nothing. */
    private static Order fill() {
        return new Order(UUID.randomUUID(), "carol", "c-1", "IBM", "NYSE", Side.BUY,
                OrderType.LIMIT, 1, BigDecimal.ONE, null, BigDecimal.ONE, OrderStatus.FILLED,
                "us-east-1", T, BigDecimal.ONE, T, "us-east-1", null);
    }

    /** One limit across regions and instances (#57): the owner counts every new order of its customer, whichever broker received it. */
    @Test
    void pastItsRateACustomersNewOrderIsRefusedByItsOwnerAndASecondLaterTaken() {
        AtomicLong nanos = new AtomicLong();
        Accounts limited = carolsOwner(new Accounts(ledger, new AccountLimits(10_000, 2), Duration.ofMinutes(10), nanos::get));
        List<Order> orders = openBuys(3);
        reserve(limited, orders.get(0));
        reserve(limited, orders.get(1));

        assertThatThrownBy(() -> reserve(limited, orders.get(2))).isInstanceOfSatisfying(OrderProblem.TooFast.class, p -> {
            assertThat(p.status().value()).isEqualTo(429);
            assertThat(p.retryAfter()).contains(Duration.ofSeconds(1));
        });
        BigDecimal reserved = limited.withAccount("carol", a -> a.holdings().reservedCash());
        assertThat(reserved).as("the refused order holds nothing").isEqualByComparingTo("2");

        nanos.addAndGet(500_000_000); // a permit comes back every half second at 2 a second
        reserve(limited, orders.get(2));
    }

    /** The owner tries a placement short of cash twice (again after catching up on the ledger): neither try counts against the rate. */
    @Test
    void anOrderRefusedForWantOfCashTakesNoPermit() {
        AtomicLong nanos = new AtomicLong();
        Accounts limited = carolsOwner(new Accounts(ledger, new AccountLimits(10_000, 2), Duration.ofMinutes(10), nanos::get));
        List<Order> orders = openBuys(2);
        Order tooDear = orders.get(0);
        for (int attempt = 0; attempt < 2; attempt++) {
            assertThatThrownBy(() -> limited.withAccount("carol", a -> {
                a.reserve(tooDear, new BigDecimal("1000000000"));
                return null;
            })).isInstanceOf(OrderProblem.Insufficient.class);
        }
        reserve(limited, orders.get(0));
        reserve(limited, orders.get(1));
    }
}
