package org.brokerapp.broker.matching;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.brokerapp.broker.failover.ExchangeOwnership;
import org.brokerapp.broker.ledger.CustomerLedger;
import org.brokerapp.broker.order.Order;
import org.brokerapp.broker.routing.InboxEvent;
import org.brokerapp.broker.routing.OrderInbox;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.RegionsModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Brings orders and cancels placed in any region for the symbols matched here into the matcher.
 * Every region's inbox is read (an exchange may fail over, and entries posted to its home's inbox
 * are then the adopter's to act on); each poll re-reads the last few seconds of each inbox (rows
 * from other regions arrive a replication delay late) and remembers which entries it handled. When
 * this region gains an exchange it re-reads every inbox from that inbox's own checkpoint, picking
 * up what the previous owner had not. Only the region's own inbox checkpoint is saved here. A PLACE entry is acted on only once the
 * order's ledger row is visible here and OPEN: the entry is written before the order, so an entry
 * whose order never appears (the placement failed) is dropped after a horizon. A CANCEL is
 * decided by the matcher, in turn with the ticks that might fill the order.
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
    private final Map<String, Long> nextBucket = new HashMap<>();
    private final Map<UUID, Boolean> pendingFromOwnInbox = new HashMap<>();
    private final List<String> regions;
    private Set<String> heldBefore = Set.of();
    private boolean catchUp;
    private long lastCheckpointSave;
    private long lastReport;
    private long seen;
    private long rested;

    public InboxTailer(OrderInbox inbox, CustomerLedger ledger, MatchingService matcher, BrokerProperties properties, RegionsModel regionsModel,
                       ExchangeOwnership exchanges) {
        this.regions = regionsModel.names();
        this.inbox = inbox;
        this.ledger = ledger;
        this.matcher = matcher;
        this.region = properties.region();
        this.lookbackSeconds = Math.max(1, properties.inbox().lookback().toSeconds());
        this.horizonSeconds = properties.inbox().pendingHorizon().toSeconds();
        exchanges.onChange(this::exchangesChanged);
    }

    @Scheduled(fixedDelayString = "${broker.inbox.poll-interval:100ms}")
    synchronized void poll() {
        long now = OrderInbox.bucketOf(Instant.now());
        if (nextBucket.isEmpty()) {
            // resume where the last run stopped; a first run starts a horizon back
            for (String inboxRegion : regions) {
                nextBucket.put(inboxRegion, inbox.checkpoint(inboxRegion).orElse(now - horizonSeconds));
            }
        }
        if (catchUp) {
            catchUp = false;
            // an exchange arrived here: whatever its previous owner had not taken from any inbox is ours to take now
            for (String inboxRegion : regions) {
                inbox.checkpoint(inboxRegion).ifPresent(from -> nextBucket.merge(inboxRegion, from, Math::min));
            }
        }
        for (String inboxRegion : regions) {
            for (long bucket = Math.min(nextBucket.get(inboxRegion), now - lookbackSeconds); bucket <= now; bucket++) {
                for (InboxEvent event : inbox.read(inboxRegion, bucket)) {
                    if (!handled.containsKey(event.eventId()) && !pending.containsKey(event.eventId())) {
                        pending.put(event.eventId(), event);
                        pendingSince.put(event.eventId(), now);
                        pendingFromOwnInbox.put(event.eventId(), inboxRegion.equals(region));
                        seen++;
                    }
                }
            }
            nextBucket.put(inboxRegion, now - lookbackSeconds);
        }
        retryPending(now);
        forgetOld(now);
        if (now - lastReport >= 10) {
            log.info("inboxes: {} entries seen, {} orders rested, {} pending", seen, rested, pending.size());
            lastReport = now;
        }
        if (now - lastCheckpointSave >= 1) {
            long oldestPending = pendingSince.entrySet().stream().filter(e -> pendingFromOwnInbox.get(e.getKey()))
                    .mapToLong(Map.Entry::getValue).min().orElse(now);
            inbox.saveCheckpoint(region, Math.min(oldestPending, now) - lookbackSeconds);
            lastCheckpointSave = now;
        }
    }

    private synchronized void exchangesChanged(Set<String> held) {
        if (!heldBefore.containsAll(held)) {
            catchUp = true;
        }
        heldBefore = Set.copyOf(held);
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
                pendingFromOwnInbox.remove(event.eventId());
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
        boolean taken = matcher.rest(RestingOrders.of(order.get()), order.get().placedAt());
        rested += taken ? 1 : 0;
        return taken;
    }

    /** Done once the matcher decided it, or found the order closed; otherwise tried again at the next poll. */
    private boolean cancel(InboxEvent event) {
        try {
            Outcome outcome = matcher.cancel(event.symbol(), event.customerId(), event.orderId()).get(5, TimeUnit.SECONDS);
            return outcome instanceof Outcome.Written || outcome instanceof Outcome.AlreadyClosed;
        } catch (TimeoutException | ExecutionException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
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
