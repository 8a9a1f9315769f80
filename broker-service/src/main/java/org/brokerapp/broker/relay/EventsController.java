package org.brokerapp.broker.relay;

import java.util.List;

import io.swagger.v3.oas.annotations.Hidden;
import org.brokerapp.broker.core.ApiProblem;
import org.brokerapp.broker.events.MalformedOrderEventException;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventCodec;
import org.brokerapp.broker.peer.PeerAuthenticationFilter;
import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Where the relays of every region (and the other instances of this one) hand in events for this
 * region, signed by the sending region's key. 200 once every event was taken; 503 tells the sender to
 * bring the same batch again a moment later; 403 for a batch carrying another region's events (a
 * relay carries only its own region's), or passed on by another region. Not part of the customer API.
 */
@Hidden
@RestController
class EventsController {

    private final EventIntake intake;
    private final OrderEventCodec codec;
    private final String region;

    EventsController(EventIntake intake, OrderEventCodec codec, BrokerProperties properties) {
        this.intake = intake;
        this.codec = codec;
        this.region = properties.region();
    }

    @PostMapping(EventIntake.PATH)
    ResponseEntity<Void> take(@RequestBody byte[] body, @RequestParam(defaultValue = "false") boolean replayed,
                              @RequestParam(defaultValue = "false") boolean passedOn, Authentication caller) {
        String sender = ((PeerAuthenticationFilter.Authenticated) caller).getPrincipal().region();
        if (passedOn && !sender.equals(region)) {
            throw new AccessDeniedException("only an instance of " + region + " passes events on within it");
        }
        List<OrderEvent> events;
        try {
            events = codec.decodeAll(body);
        } catch (MalformedOrderEventException e) {
            throw new NotABatch();
        }
        if (!passedOn) {
            // a region's key speaks for its own region's events only: a batch naming another region is not its relay's
            events.stream().filter(e -> !e.region().equals(sender)).findFirst().ifPresent(e -> {
                throw new AccessDeniedException("a batch signed by " + sender + " may carry only " + sender + "'s events");
            });
        }
        boolean taken = intake.take(sender, events, replayed, passedOn);
        return ResponseEntity.status(taken ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).build();
    }

    /** A body that is not a batch of order events (400). */
    static final class NotABatch extends ApiProblem {
        NotABatch() {
            super(HttpStatus.BAD_REQUEST, "Invalid request", "the body is not a batch of order events");
        }
    }
}
