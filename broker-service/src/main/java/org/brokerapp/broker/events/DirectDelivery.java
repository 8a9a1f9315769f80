package org.brokerapp.broker.events;

import java.util.concurrent.CompletableFuture;

/**
 * Carries one event straight to the region that acts on it, around this region's Kafka: what
 * {@link OrderEventPublisher} falls back to when Kafka has not taken an event in time. Implemented
 * by the relay, which knows where each event goes and how to hand it over.
 */
public interface DirectDelivery {

    /** Completes once the acting region took the event; exceptionally if it did not, or no region can act on it. */
    CompletableFuture<Void> deliver(OrderEvent event);
}
