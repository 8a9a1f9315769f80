package org.brokerapp.broker.deciding;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.brokerapp.broker.web.OpenApiConfiguration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The operator's failover commands (HTTP Basic user {@code operator}). */
@RestController
@RequestMapping("/admin/exchanges")
@Tag(name = "failover")
@SecurityRequirement(name = OpenApiConfiguration.BASIC)
class FailoverController {

    private final Failover failover;

    FailoverController(Failover failover) {
        this.failover = failover;
    }

    @Operation(summary = "Every exchange: its home, the region matching it now, and since when")
    @GetMapping
    List<Failover.ExchangeView> exchanges() {
        return failover.exchanges();
    }

    @Operation(summary = "This region adopts an exchange whose owner's broker is gone",
            description = "409 while the owner's broker still answers; 503 if some DC's Cassandra cannot take the change. Matching here starts after the handover period.")
    @PostMapping("/{exchange}/adopt")
    Failover.ExchangeView adopt(@PathVariable String exchange) {
        return failover.adopt(exchange);
    }

    @Operation(summary = "Hand an adopted exchange back to its home region")
    @PostMapping("/{exchange}/release")
    Failover.ExchangeView release(@PathVariable String exchange) {
        return failover.release(exchange);
    }
}
