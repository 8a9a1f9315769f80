package org.brokerapp.broker.order;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.brokerapp.broker.account.Holdings;
import org.brokerapp.broker.account.LedgerPage;
import org.brokerapp.broker.account.Pending;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.Placement;
import org.springframework.stereotype.Service;

/**
 * The one door into the order stage, for the API's controllers: placing, cancelling and reading
 * orders. Every placement is decided by the one broker instance owning the customer's account, in
 * the customer's home region ({@link Placements}); a MARKET order executes in the region matching
 * its exchange ({@link RoutedExecutions}); a cancel is decided by the symbol's matcher ({@link
 * Cancels}); reads come from the ledger ({@link OrderReads}).
 */
@Service
class OrderService {

    private final Placements placements;
    private final RoutedExecutions routed;
    private final Cancels cancels;
    private final OrderReads reads;

    OrderService(Placements placements, RoutedExecutions routed, Cancels cancels, OrderReads reads) {
        this.placements = placements;
        this.routed = routed;
        this.cancels = cancels;
        this.reads = reads;
    }

    /** Places an order a customer sent to this broker. */
    Placement place(PlaceOrder command) {
        return placements.place(command);
    }

    /** Places an order for a customer who sent it to {@code placedRegion} (forwarded here by that region, or by an instance of this one). */
    Placement placeForwarded(PlaceOrder command, String placedRegion, boolean passedOn) {
        return placements.placeForwarded(command, placedRegion, passedOn);
    }

    /** Executes a MARKET order its customer's owner sent here, this region matching its symbol. */
    Placement executeRouted(PlaceOrder command, String placedRegion, BigDecimal maxPrice, boolean retry, boolean passedOn) {
        return routed.execute(command, placedRegion, maxPrice, retry, passedOn);
    }

    /** Finishes the placement of an order whose outcome stayed unknown, as the customer's retry would. */
    Placement settle(Order unsettled) {
        return placements.settle(unsettled);
    }

    /** The result of a cancel: the order, and whether this broker decided it ({@code false}: sent to the holder of its symbol, which decides). */
    record Cancellation(Order order, boolean decided) {
    }

    Cancellation cancel(String customerId, UUID orderId) {
        return cancels.cancel(customerId, orderId);
    }

    Order get(String customerId, UUID orderId) {
        return reads.get(customerId, orderId);
    }

    Order getHere(String customerId, UUID orderId) {
        return reads.getHere(customerId, orderId);
    }

    LedgerPage list(String customerId, Optional<OrderStatus> status, int size, Optional<String> after) {
        return reads.list(customerId, status, size, after);
    }

    LedgerPage transactions(String customerId, int size, Optional<String> after) {
        return reads.transactions(customerId, size, after);
    }

    /** A customer's balances: the ledger's, and the pending orders when answered by their owner. */
    record Balances(Holdings ledger, Optional<List<Pending>> pending) {
    }

    Balances balances(String customerId) {
        return reads.balances(customerId);
    }
}
