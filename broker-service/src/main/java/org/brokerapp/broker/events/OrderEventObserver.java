package org.brokerapp.broker.events;

/**
 * Sees every order event this instance publishes or takes from the relay, once it is durable and
 * (for a taken event) was not refused: the customers' pushed updates ({@code stream.OrderUpdates}).
 * Called on the publishing or taking thread, so it must only hand the event on.
 */
@FunctionalInterface
public interface OrderEventObserver {

    void observe(OrderEvent event);
}
