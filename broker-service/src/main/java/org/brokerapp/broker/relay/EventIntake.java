package org.brokerapp.broker.relay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.datastax.oss.driver.api.core.DriverException;
import org.brokerapp.broker.account.Accounts;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.account.Report;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventObserver;
import org.brokerapp.broker.matching.Matcher;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.ticker.SymbolHolders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Takes the events the relay brings to this region and hands each to the one instance that acts on
 * it: an order to rest or a cancel request to the matcher holding the symbol, a fill or cancel to
 * the owner of the customer's account. When that is another instance of this region, the events
 * go there (once: an instance never passes on what another instance passed to it).
 *
 * <p>Taking an event twice changes nothing (the matcher indexes an order once, and checks against the
 * ledger any order its decision memory cannot vouch for; an account applies a fill once). Events the
 * relay delivers again after a restart are
 * marked {@code replayed}: their order may have been decided since, by an instance that no longer
 * remembers, so such an order is checked against the ledger before it rests, and rests to be
 * checked again before its first decision if its row is not visible here (its placement's writes
 * and event go out together, so an event can outlive a write that failed).
 */
@Component
class EventIntake {

    private static final Logger log = LoggerFactory.getLogger(EventIntake.class);
    static final String PATH = PassOn.PATH;

    private final Matcher matcher;
    private final Accounts accounts;
    private final CustomerHomes homes;
    private final SymbolHolders holders;
    private final PassOn passOn;
    private final EventAuthority authority;
    private final OrderEventObserver observer;
    private final String region;

    public EventIntake(Matcher matcher, Accounts accounts, CustomerHomes homes, SymbolHolders holders, PassOn passOn, EventAuthority authority,
                       OrderEventObserver observer, BrokerProperties properties) {
        this.matcher = matcher;
        this.accounts = accounts;
        this.homes = homes;
        this.holders = holders;
        this.passOn = passOn;
        this.authority = authority;
        this.observer = observer;
        this.region = properties.region();
    }

    /**
     * A batch of events for this region, in order, handed in by {@code sender}: the region whose
     * relay brought them (this one, for events of its own Kafka), or this region again for a batch
     * another instance of it passed on. True once every one of them was taken (here, or by the
     * instance it is for); false asks for the same batch again a moment later.
     *
     * <p>An event its sender may not hand in (another region's, or one its region may not decide,
     * {@link EventAuthority}) and a fill that is not one of the customer's order are refused:
     * counted, logged, and taken, since bringing them again would change nothing.
     *
     * <p>A Cassandra failure on the way (a lease's holder, a ledger row, a fill's write) stops the
     * batch there: the rest waits with it, in order, and the batch comes again. Thrown, it would
     * start the relay's consumer over, which takes readiness away for a rebalance: an overloaded
     * broker-kill drill saw readiness flap on every such timeout.
     */
    public boolean take(String sender, List<OrderEvent> events, boolean replayed, boolean passedOn) {
        Map<String, List<OrderEvent>> elsewhere = new HashMap<>();
        boolean all = true;
        for (OrderEvent event : events) {
            if (refused(sender, event, passedOn)) {
                continue;
            }
            Optional<String> target;
            try {
                target = event.forMatcher() ? takeForMatching(event, replayed) : takeForAccount(event);
            } catch (DriverException e) {
                log.warn("order event {} not taken, Cassandra failed ({}); its batch comes again", event.eventId(), e.getMessage());
                return false;
            }
            if (target == null) {
                all = false;
            } else if (target.isPresent()) {
                if (passedOn) {
                    all = false;
                } else {
                    elsewhere.computeIfAbsent(target.get(), url -> new ArrayList<>()).add(event);
                }
            }
        }
        for (Map.Entry<String, List<OrderEvent>> batch : elsewhere.entrySet()) {
            all &= passOn.to(batch.getKey(), batch.getValue(), replayed);
        }
        return all;
    }

    /** Whether the event is refused: handed in by a region other than its own, or by one that may not send it. */
    private boolean refused(String sender, OrderEvent event, boolean passedOn) {
        if (!passedOn && !event.region().equals(sender)) {
            authority.refused(event, new EventAuthority.Refusal("not.sender", "an event of " + event.region() + " handed in by " + sender));
            return true;
        }
        return authority.refuses(event);
    }

    /** Empty: taken here; a URL: for that instance; null: nobody can take it now (try again). */
    private Optional<String> takeForMatching(OrderEvent event, boolean replayed) {
        return switch (matcher.take(event, replayed)) {
            case TAKEN -> {
                observer.observe(event);
                yield Optional.empty();
            }
            case NOT_HELD_HERE -> {
                Optional<String> holder = holders.otherHolderOf(event.symbol());
                yield holder.isEmpty() ? null : holder;
            }
            case NOT_NOW -> null;
        };
    }

    private Optional<String> takeForAccount(OrderEvent event) {
        if (!homes.homeOf(event.customerId()).map(region::equals).orElse(false)) {
            observer.observe(event);
            return Optional.empty();
        }
        Report report = switch (event.type()) {
            case FILLED -> accounts.filled(event.order());
            case CANCELLED, EXPIRED -> accounts.closedUnfilled(event.customerId(), event.orderId(), event.order().status(), event.closedAt());
            default -> accounts.owns(event.customerId()) ? new Report.Applied() : new Report.NotOwned();
        };
        if (report instanceof Report.Refused refused) {
            authority.refusedByOwner(event, refused.reason());
            return Optional.empty();
        }
        if (report instanceof Report.NotOwned) {
            Optional<String> owner = accounts.ownerUrl(event.customerId());
            return owner.isEmpty() ? null : owner;
        }
        observer.observe(event);
        return Optional.empty();
    }
}
