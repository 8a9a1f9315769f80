package org.brokerapp.broker.stream;

import java.security.Principal;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.brokerapp.broker.web.OpenApiConfiguration;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** The customer's order updates as Server-Sent Events, in every region from what that region holds. */
@RestController
@RequestMapping("/api")
@Tag(name = "orders")
@SecurityRequirement(name = OpenApiConfiguration.BEARER)
class OrderStreamController {

    private final OrderUpdates updates;

    OrderStreamController(OrderUpdates updates) {
        this.updates = updates;
    }

    @Operation(summary = "The customer's order updates, pushed", description = """
            Server-Sent Events: one event per update (PLACED, FILLED, CANCELLED, EXPIRED) with the order's fields as JSON. \
            Reconnect with Last-Event-ID to get what was missed; a `resync` event says updates were lost and the orders must be read again. \
            Connect in your home region to see every update; another region streams what it placed or decided.""")
    @GetMapping(path = "/orders/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter stream(Principal customer, @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
        return updates.subscribe(customer.getName(), lastEventId);
    }
}
