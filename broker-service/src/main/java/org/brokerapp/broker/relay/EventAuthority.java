package org.brokerapp.broker.relay;

import java.util.Optional;

import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Who may hand in which order event. An event says which region published it ({@link OrderEvent#region()});
 * that region must be one entitled to decide what the event reports:
 * <ul>
 * <li>FILLED, CANCELLED and EXPIRED: a region that decides the symbol's exchange, its home or the region it
 *     failed over to now (a MARKET order's fill included: it is executed there);</li>
 * <li>PLACED and CANCEL_REQUESTED: the customer's home (where their owner places) or the region the
 *     order was placed in.</li>
 * </ul>
 * With the intake's other check, that the signer of a call is the region its events name
 * ({@link EventsController}), a region's key speaks only for what its own region decides: a leaked
 * Sydney key cannot report a fill of a NYSE order. What the fill may do to a balance is the owner's
 * check ({@code account.FillCheck}).
 */
@Component
class EventAuthority {

    private static final Logger log = LoggerFactory.getLogger(EventAuthority.class);

    private final ExchangeOwnership exchanges;
    private final CustomerHomes homes;
    private final SymbolUniverse universe;
    private final BrokerMetrics metrics;

    EventAuthority(ExchangeOwnership exchanges, CustomerHomes homes, SymbolUniverse universe, BrokerMetrics metrics) {
        this.exchanges = exchanges;
        this.homes = homes;
        this.universe = universe;
        this.metrics = metrics;
    }

    /** Whether the event is refused: counted and logged if so. */
    boolean refuses(OrderEvent event) {
        Optional<Refusal> refusal = refusal(event);
        refusal.ifPresent(r -> refused(event, r));
        return refusal.isPresent();
    }

    /** Counts and logs an event refused at intake, by a rule of this class's or the intake's own. */
    void refused(OrderEvent event, Refusal refusal) {
        metrics.refusedEvent(refusal.rule());
        log.warn("order event {} of {} refused ({}): {}", event.eventId(), event.customerId(), refusal.rule(), refusal.reason());
    }

    /** Counts and logs a fill the customer's owner refused: not one of the customer's orders, or not a fill it could be. */
    void refusedByOwner(OrderEvent event, String reason) {
        metrics.refusedFill("event");
        log.warn("fill {} of {} from {} refused by the owner: {}", event.eventId(), event.customerId(), event.region(), reason);
    }

    /** Why the event's region may not hand it in; empty if it may. The rule's name is the refusal counter's tag. */
    Optional<Refusal> refusal(OrderEvent event) {
        String from = event.region();
        return switch (event.type()) {
            case FILLED, CANCELLED, EXPIRED -> {
                Optional<Listing> listing = universe.find(event.symbol());
                if (listing.isEmpty()) {
                    yield Optional.of(new Refusal("unlisted", event.symbol() + " is not a listed symbol"));
                }
                String exchange = listing.get().exchange();
                boolean decides = from.equals(exchanges.homeOf(exchange)) || from.equals(exchanges.ownerOf(exchange).region());
                yield decides ? Optional.empty()
                        : Optional.of(new Refusal("not.decider", from + " does not decide " + exchange + ", so it cannot report a " + event.type()));
            }
            case PLACED, CANCEL_REQUESTED -> {
                boolean places = homes.homeOf(event.customerId()).map(from::equals).orElse(false) || from.equals(event.placedRegion());
                yield places ? Optional.empty()
                        : Optional.of(new Refusal("not.placer", from + " is neither " + event.customerId() + "'s home nor where the order was placed"));
            }
        };
    }

    /** A refused event: the rule (a metric tag) and the reason, one line. */
    record Refusal(String rule, String reason) {
    }
}
