package org.brokerapp.broker.relay;

import java.util.Optional;

import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;
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

    private final ExchangeOwnership exchanges;
    private final CustomerHomes homes;
    private final SymbolUniverse universe;

    EventAuthority(ExchangeOwnership exchanges, CustomerHomes homes, SymbolUniverse universe) {
        this.exchanges = exchanges;
        this.homes = homes;
        this.universe = universe;
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
