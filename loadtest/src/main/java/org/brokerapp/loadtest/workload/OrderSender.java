package org.brokerapp.loadtest.workload;

import java.math.BigDecimal;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.brokerapp.api.OrderType;
import org.brokerapp.client.BrokerClient;
import org.brokerapp.loadtest.measure.Counters;
import org.brokerapp.loadtest.measure.ErrorKinds;
import org.brokerapp.loadtest.measure.LatencyBook;
import org.brokerapp.loadtest.measure.Measures;
import tools.jackson.databind.JsonNode;

/**
 * Places planned orders over REST without waiting for them, and on each answer records its latency
 * from the intended start: LIMIT/STOP as placement, MARKET (answered with its fill) as market
 * latency, local or cross-region. Any other answer is an error of its kind (order type, status and
 * problem title, e.g. {@code "MARKET: HTTP 422 Unsupported order"}), and its latency is recorded as
 * a refusal (a region cut off must refuse fast); accepted orders are kept for the check.
 */
public final class OrderSender {

    private final BrokerClient client;
    private final LatencyBook latencies;
    private final ErrorKinds errors;
    private final Counters counters;
    private final AcceptedOrders accepted;
    private final Set<String> refused = ConcurrentHashMap.newKeySet();

    public OrderSender(BrokerClient client, LatencyBook latencies, ErrorKinds errors, Counters counters, AcceptedOrders accepted) {
        this.client = client;
        this.latencies = latencies;
        this.errors = errors;
        this.counters = counters;
        this.accepted = accepted;
    }

    public void send(PlannedOrder order, long intendedStartNanos) {
        counters.ordersSent.increment();
        client.placeOrder(order.placedIn(), order.customerId(), PlannedOrder.password(order.customer()), order.json(), intendedStartNanos)
                .whenComplete((response, failure) -> {
                    if (failure != null) {
                        fail(order, ErrorKinds.ofThrowable(failure));
                    } else {
                        answered(order, intendedStartNanos, response);
                    }
                });
    }

    private void answered(PlannedOrder order, long intendedStartNanos, BrokerClient.Answer response) {
        int status = response.status();
        if (status != 200 && status != 201) {
            String title = BrokerClient.problemTitle(response.body());
            String detail = BrokerClient.problemDetail(response.body());
            if (status >= 400 && status < 500 && status != 429) {
                refused.add(order.clientOrderId());
            }
            record(Measures.refused(order.type().name(), order.placedIn(), order.crossRegion()), intendedStartNanos, response);
            counters.ordersFailed.increment();
            errors.count(order.type() + ": HTTP " + status + (title.isEmpty() ? "" : " " + title),
                    order.customerId() + " " + order.side() + " " + order.quantity() + " " + order.symbol().symbol() + " in " + order.placedIn()
                            + " (" + order.clientOrderId() + ")" + (detail.isEmpty() ? "" : ": " + detail));
            return;
        }
        JsonNode view;
        try {
            view = BrokerClient.parse(response.body());
        } catch (RuntimeException e) {
            fail(order, "unreadable answer");
            return;
        }
        String orderStatus = text(view, "status");
        if (order.type() == OrderType.MARKET) {
            if (!"FILLED".equals(orderStatus)) {
                fail(order, "answered " + orderStatus + ", not FILLED");
                return;
            }
            record(Measures.market(order.placedIn(), order.crossRegion()), intendedStartNanos, response);
            counters.marketFilled.increment();
        } else {
            record(Measures.placement(order.placedIn(), order.crossRegion()), intendedStartNanos, response);
        }
        counters.ordersAccepted.increment();
        String fill = text(view, "fillPrice");
        accepted.add(new AcceptedOrder(order, text(view, "orderId"), orderStatus, fill == null ? null : new BigDecimal(fill)));
    }

    private void record(String measure, long intendedStartNanos, BrokerClient.Answer response) {
        latencies.recordMicros(measure, Math.max(1, (response.receivedNanos() - intendedStartNanos) / 1_000));
    }

    /** Whether the broker refused this order for a reason of its own (4xx but 429), which sending it again would not change. */
    public boolean refused(PlannedOrder order) {
        return refused.contains(order.clientOrderId());
    }

    private void fail(PlannedOrder order, String kind) {
        counters.ordersFailed.increment();
        errors.count(order.type() + ": " + kind);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }
}
