package org.brokerapp.broker.matching;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Semaphore;

import org.brokerapp.broker.failover.ExchangeOwnership;
import org.brokerapp.broker.ledger.CustomerLedger;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.ticker.Tick;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Turns a triggered order into a fill: one conditional update of the order's ledger row
 * (IF status = 'OPEN', LOCAL_SERIAL in this home region), then the open_orders row goes. The
 * condition is the fence: a cancel, a second broker instance holding the symbol during a
 * rebalance, or a replayed tick after a crash all find the order closed and change nothing. Across
 * regions the fence is {@link ExchangeOwnership}: no fill starts unless this region holds the exchange.
 * Fills run asynchronously; at most {@code maxFillsInFlight} at once, beyond which the matcher
 * thread waits: backpressure, not an unbounded queue.
 */
@Component
public class FillExecutor {

    private static final Logger log = LoggerFactory.getLogger(FillExecutor.class);
    private static final int MAX_ATTEMPTS = 5;

    private final CustomerLedger ledger;
    private final OpenOrders openOrders;
    private final BrokerMetrics metrics;
    private final String region;
    private final Semaphore inFlight;

    private final ExchangeOwnership exchanges;

    public FillExecutor(CustomerLedger ledger, OpenOrders openOrders, BrokerMetrics metrics, BrokerProperties properties,
                        ExchangeOwnership exchanges) {
        this.exchanges = exchanges;
        this.ledger = ledger;
        this.openOrders = openOrders;
        this.metrics = metrics;
        this.region = properties.region();
        this.inFlight = new Semaphore(properties.matching().maxFillsInFlight());
    }

    void fill(RestingOrder order, Tick tick, long receivedNanos) throws InterruptedException {
        inFlight.acquire();
        attempt(order, tick, receivedNanos, 1);
    }

    private void attempt(RestingOrder order, Tick tick, long receivedNanos, int attempt) {
        if (!exchanges.holdsSymbol(order.symbol())) {
            // the exchange moved to another region: the order stays OPEN for the new owner, which rebuilds it
            inFlight.release();
            metrics.fillAbandoned();
            return;
        }
        ledger.fill(order.customerId(), order.orderId(), tick.price(), Instant.now(), region).whenComplete((transition, error) -> {
            if (error != null) {
                if (attempt < MAX_ATTEMPTS) {
                    // the outcome of a timed-out LWT is unknown; re-running the same condition is safe
                    attempt(order, tick, receivedNanos, attempt + 1);
                    return;
                }
                inFlight.release();
                metrics.fillFailed();
                log.error("fill of order {} failed after {} attempts; it stays OPEN in the ledger and is rebuilt on restart",
                        order.orderId(), attempt, error);
                return;
            }
            inFlight.release();
            if (transition.applied()) {
                metrics.filled(Duration.between(tick.eventTime(), Instant.now()), Duration.ofNanos(System.nanoTime() - receivedNanos));
                openOrders.deleteAsync(order.symbol(), order.orderId());
            } else if (transition.statusBefore() != null) {
                metrics.fillLostRace();
                openOrders.deleteAsync(order.symbol(), order.orderId());
            } else {
                // orders enter the index only once their ledger row is visible here; keep the row for the next rebuild
                metrics.fillFailed();
                log.warn("order {} triggered but its ledger row is not visible in this region", order.orderId());
            }
        });
    }
}
