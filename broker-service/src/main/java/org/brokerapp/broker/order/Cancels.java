package org.brokerapp.broker.order;

import java.util.UUID;

import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventPublisher;
import org.brokerapp.broker.matching.Matcher;
import org.brokerapp.broker.matching.Outcome;
import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.stereotype.Component;

/**
 * Cancels, decided by the matcher holding the order's symbol, in turn with its ticks, so a cancel
 * racing a fill ends in exactly one of the two: at once when this instance holds it, else by the
 * holder, to which a cancel request goes as an event.
 */
@Component
class Cancels {

    private final OrderReads reads;
    private final Matcher matcher;
    private final OrderEventPublisher events;
    private final String region;

    Cancels(OrderReads reads, Matcher matcher, OrderEventPublisher events, BrokerProperties properties) {
        this.reads = reads;
        this.matcher = matcher;
        this.events = events;
        this.region = properties.region();
    }

    OrderService.Cancellation cancel(String customerId, UUID orderId) {
        Order order = reads.get(customerId, orderId);
        if (!order.isOpen()) {
            throw new OrderProblem.Closed(orderId.toString(), order.status());
        }
        // a decision slower than Outcome.WAIT (its write being retried) is left to finish: the request published then is answered by it
        Outcome outcome = Outcome.await(matcher.cancel(order));
        if (outcome instanceof Outcome.Written) {
            return new OrderService.Cancellation(reads.get(customerId, orderId), true);
        }
        if (outcome instanceof Outcome.AlreadyClosed closed) {
            throw new OrderProblem.Closed(orderId.toString(), closed.status());
        }
        if (!events.publishAndWait(OrderEvent.cancelRequested(order, region), Outcome.WAIT)) {
            throw new OrderProblem.NotOwner(customerId, "the cancel of order " + orderId + " could not be recorded now; retry");
        }
        return new OrderService.Cancellation(order, false);
    }
}
