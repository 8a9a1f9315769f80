package org.brokerapp.broker.order;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.brokerapp.broker.account.Accounts;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.account.LedgerPage;
import org.brokerapp.broker.account.LedgerSnapshot;
import org.brokerapp.broker.account.Pending;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.routing.OrderLookup;
import org.brokerapp.broker.routing.OrderRouter;
import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.stereotype.Component;

/** A customer's orders, fills and balances, as the ledger holds them (and their owner, for what is pending). */
@Component
class OrderReads {

    /** Most ledger rows one page of a list reads. */
    static final int MAX_PAGE_SIZE = 500;

    private final CustomerLedger ledger;
    private final CustomerHomes homes;
    private final OrderRouter router;
    private final Accounts accounts;
    private final String region;

    OrderReads(CustomerLedger ledger, CustomerHomes homes, OrderRouter router, Accounts accounts, BrokerProperties properties) {
        this.ledger = ledger;
        this.homes = homes;
        this.router = router;
        this.accounts = accounts;
        this.region = properties.region();
    }

    /**
     * The order as this region's replicas hold it, else as the customer's home region does: an order
     * placed here is forwarded home and acknowledged here before its rows arrive across the WAN, and
     * the customer must still find it where they placed it (read, cancel).
     */
    Order get(String customerId, UUID orderId) {
        return ledger.readOrder(customerId, orderId)
                .or(() -> homes.homeOf(customerId).filter(home -> !home.equals(region))
                        .flatMap(home -> router.lookUp(home, new OrderLookup(customerId, orderId))))
                .orElseThrow(() -> notFound(orderId));
    }

    /** The order as this region's replicas hold it: the home region's answer to {@link #get} from elsewhere. */
    Order getHere(String customerId, UUID orderId) {
        return ledger.readOrder(customerId, orderId).orElseThrow(() -> notFound(orderId));
    }

    private static OrderProblem notFound(UUID orderId) {
        return new OrderProblem.NotFound("no order " + orderId);
    }

    /**
     * One page of the customer's orders: {@code size} ledger rows from where {@code after} left off,
     * those of {@code status} kept (so a page may hold fewer, even none, and still have a next),
     * newest first within the page.
     */
    LedgerPage list(String customerId, Optional<OrderStatus> status, int size, Optional<String> after) {
        if (size < 1 || size > MAX_PAGE_SIZE) {
            throw new OrderProblem.Invalid("size must be 1 to " + MAX_PAGE_SIZE);
        }
        LedgerPage page;
        try {
            page = ledger.readPage(customerId, size, after);
        } catch (IllegalArgumentException notThisList) {
            throw new OrderProblem.Invalid("'after' is not a page token of this list: pass the one its previous page's Link named");
        }
        return new LedgerPage(page.orders().stream()
                .filter(o -> status.map(s -> o.status() == s).orElse(true))
                .sorted(Comparator.comparing(Order::placedAt).reversed())
                .toList(), page.next());
    }

    /** One page of the customer's fills, as {@link #list}, newest fill first within the page. */
    LedgerPage transactions(String customerId, int size, Optional<String> after) {
        LedgerPage page = list(customerId, Optional.of(OrderStatus.FILLED), size, after);
        return new LedgerPage(page.orders().stream().sorted(Comparator.comparing(Order::filledAt).reversed()).toList(), page.next());
    }

    /**
     * The ledger's balances and, when this instance owns the customer, the orders whose outcome is
     * not known yet (only the owner knows of them; an order the ledger already holds is not pending).
     */
    OrderService.Balances balances(String customerId) {
        LedgerSnapshot snapshot = ledger.read(customerId).orElseThrow(() -> new OrderProblem.Invalid("no account for customer " + customerId));
        Set<UUID> inLedger = snapshot.orders().stream().map(Order::orderId).collect(Collectors.toSet());
        Optional<List<Pending>> pending = accounts.pending(customerId)
                .map(all -> all.stream().filter(p -> !inLedger.contains(p.orderId())).toList());
        return new OrderService.Balances(snapshot.holdings(), pending);
    }
}
