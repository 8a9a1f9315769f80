package org.brokerapp.broker.matching;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.brokerapp.broker.ledger.CustomerLedger;
import org.brokerapp.broker.order.Order;
import org.brokerapp.broker.routing.InboxEvent;
import org.brokerapp.broker.routing.OrderInbox;
import org.brokerapp.broker.system.BrokerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Brings orders and cancels placed in any region for this region's symbols into the matcher. Each
 * poll re-reads the last few seconds of the inbox (rows from other regions arrive a replication
 * delay late) and remembers which entries it handled. A PLACE entry is acted on only once the
 * order's ledger row is visible here and OPEN: the entry is written before the order, so an entry
 * whose order never appears (the placement failed) is dropped after a horizon. A CANCEL is
 * decided here, in the home region, by the same conditional update a fill uses.
 */
@Component
public class InboxTailer {

    private static final Logger log = LoggerFactory.getLogger(InboxTailer.class);

    private final OrderInbox inbox;
    private final CustomerLedger ledger;
    private final MatchingService matcher;
    private final String region;
    private final long lookbackSeconds;
    private final long horizonSeconds;
    private final Map<UUID, Long> handled = new LinkedHashMap<>();
    private final Map<UUID, InboxEvent> pending = new LinkedHashMap<>();
    private final Map<UUID, Long> pendingSince = new LinkedHashMap<>();
    private long nextBucket = -1;
    private long lastCheckpointSave;
    private long lastReport;
    private long seen;
    private long rested;

    public InboxTailer(OrderInbox inbox, CustomerLedger ledger, MatchingService matcher, BrokerProperties properties) {
        this.inbox = inbox;
        this.ledger = ledger;
        this.matcher = matcher;
        this.region = properties.region();
        this.lookbackSeconds = Math.max(1, properties.inbox().lookback().toSeconds());
        this.horizonSeconds = properties.inbox().pendingHorizon().toSeconds();
    }

    @Scheduled(fixedDelayString = "${broker.inbox.poll-interval:100ms}")
    synchronized void poll() {
        long now = OrderInbox.bucketOf(Instant.now());
        if (nextBucket < 0) {
            // resume where the last run stopped; a first run starts a horizon back
            nextBucket = inbox.checkpoint(region).orElse(now - horizonSeconds);
        }
        for (long bucket = Math.min(nextBucket, now - lookbackSeconds); bucket <= now; bucket++) {
            for (InboxEvent event : inbox.read(region, bucket)) {
                if (!handled.containsKey(event.eventId()) && !pending.containsKey(event.eventId())) {
                    pending.put(event.eventId(), event);
                    pendingSince.put(event.eventId(), now);
                    seen++;
                }
            }
        }
        nextBucket = now - lookbackSeconds;
        retryPending(now);
        forgetOld(now);
        if (now - lastReport >= 10) {
            log.info("inbox of {}: {} entries seen, {} orders rested, {} pending, reading from second {}", region, seen, rested, pending.size(), nextBucket);
            lastReport = now;
        }
        if (now - lastCheckpointSave >= 1) {
            long oldestPending = pendingSince.values().stream().mapToLong(Long::longValue).min().orElse(now);
            inbox.saveCheckpoint(region, Math.min(oldestPending, now) - lookbackSeconds);
            lastCheckpointSave = now;
        }
    }

    private void retryPending(long now) {
        Iterator<Map.Entry<UUID, InboxEvent>> it = pending.entrySet().iterator();
        while (it.hasNext()) {
            InboxEvent event = it.next().getValue();
            // an entry for a symbol held elsewhere waits too: during a rebalance nobody may hold it,
            // and whoever takes the symbol over within the horizon must still see the entry
            boolean done = matcher.owns(event.symbol()) && switch (event.kind()) {
                case PLACE -> place(event);
                case CANCEL -> cancel(event);
            };
            if (done || now - pendingSince.get(event.eventId()) > horizonSeconds) {
                if (!done && matcher.owns(event.symbol())) {
                    log.info("inbox entry {} for order {} dropped: the order never became visible", event.eventId(), event.orderId());
                }
                it.remove();
                pendingSince.remove(event.eventId());
                handled.put(event.eventId(), now);
            }
        }
    }

    private boolean place(InboxEvent event) {
        Optional<Order> order = ledger.readOrder(event.customerId(), event.orderId());
        if (order.isEmpty()) {
            return false;
        }
        if (!order.get().isOpen()) {
            return true;
        }
        boolean taken = matcher.rest(RestingOrders.of(order.get()));
        rested += taken ? 1 : 0;
        return taken;
    }

    private boolean cancel(InboxEvent event) {
        CustomerLedger.Transition t = ledger.cancel(event.customerId(), event.orderId(), Instant.now());
        if (t.applied()) {
            matcher.closed(event.symbol(), event.orderId());
            return true;
        }
        return t.statusBefore() != null;
    }

    private void forgetOld(long now) {
        List<UUID> old = new ArrayList<>();
        handled.forEach((id, at) -> {
            if (now - at > lookbackSeconds + horizonSeconds) {
                old.add(id);
            }
        });
        old.forEach(handled::remove);
    }
}
