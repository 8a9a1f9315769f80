package org.brokerapp.broker.relay;

import java.util.List;

import io.swagger.v3.oas.annotations.Hidden;
import org.brokerapp.broker.core.ApiProblem;
import org.brokerapp.broker.events.MalformedOrderEventException;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventCodec;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Where the relays of every region (and the other instances of this one) hand in events for this
 * region (HTTP Basic user {@code router}). 200 once every event was taken; 503 tells the sender to
 * bring the same batch again a moment later. Not part of the customer API.
 */
@Hidden
@RestController
class EventsController {

    private final EventIntake intake;
    private final OrderEventCodec codec;

    EventsController(EventIntake intake, OrderEventCodec codec) {
        this.intake = intake;
        this.codec = codec;
    }

    @PostMapping(EventIntake.PATH)
    ResponseEntity<Void> take(@RequestBody byte[] body, @RequestParam(defaultValue = "false") boolean replayed,
                              @RequestParam(defaultValue = "false") boolean passedOn) {
        List<OrderEvent> events;
        try {
            events = codec.decodeAll(body);
        } catch (MalformedOrderEventException e) {
            throw new NotABatch();
        }
        boolean taken = intake.take(events, replayed, passedOn);
        return ResponseEntity.status(taken ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).build();
    }

    /** A body that is not a batch of order events (400). */
    static final class NotABatch extends ApiProblem {
        NotABatch() {
            super(HttpStatus.BAD_REQUEST, "Invalid request", "the body is not a batch of order events");
        }
    }
}
