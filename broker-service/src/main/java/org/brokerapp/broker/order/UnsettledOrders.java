package org.brokerapp.broker.order;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.brokerapp.broker.account.Accounts;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.system.BrokerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Settles the placements whose outcome stayed unknown. A placement whose write or event did not
 * answer in time keeps its reservation (it may have landed), and its customer is told to retry;
 * one who never does would leave the cash held for good. So after {@code
 * broker.matching.settle-unknown-after} the owner retries it itself ({@link OrderService#settle}),
 * every few seconds until the servers answer. It is never released on a timer: an order that may
 * have landed and then fills would take money the customer had meanwhile spent elsewhere.
 */
@Component
class UnsettledOrders {

    private static final Logger log = LoggerFactory.getLogger(UnsettledOrders.class);

    private final Accounts accounts;
    private final OrderService orders;
    private final Duration settleAfter;
    private final Counter settled;
    private final Counter stillUnknown;

    UnsettledOrders(Accounts accounts, OrderService orders, BrokerProperties properties, MeterRegistry registry) {
        this.accounts = accounts;
        this.orders = orders;
        this.settleAfter = properties.matching().settleUnknownAfter();
        // ops: placements whose outcome is unknown now (alert UnsettledPlacements), and how their settling went
        Gauge.builder("broker.orders.unsettled", accounts, Accounts::unsettledCount)
                .description("placements whose outcome is unknown: their reservations show as pending").register(registry);
        Gauge.builder("broker.accounts.orders.in.memory", accounts, Accounts::ordersInMemory)
                .description("orders the owned accounts keep in memory: open, unsettled and closed lately (bounded state)").register(registry);
        this.settled = Counter.builder("broker.orders.settling").tag("outcome", "settled")
                .description("attempts by an owner to finish a placement of unknown outcome").register(registry);
        this.stillUnknown = Counter.builder("broker.orders.settling").tag("outcome", "still.unknown")
                .description("attempts by an owner to finish a placement of unknown outcome").register(registry);
    }

    @Scheduled(fixedDelayString = "${broker.matching.settle-every:5s}")
    void settleOverdue() {
        for (Order order : accounts.unsettledFor(settleAfter)) {
            try {
                orders.settle(order);
                settled.increment();
                log.info("order {} of {}, of unknown outcome since its placement, settled by its owner", order.orderId(), order.customerId());
            } catch (RuntimeException notYet) {
                // a refusal released its reservation already; anything else leaves it pending for the next round
                stillUnknown.increment();
                log.warn("order {} of {} still of unknown outcome: {}", order.orderId(), order.customerId(), notYet.getMessage());
            }
        }
    }
}
