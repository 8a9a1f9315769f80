package org.brokerapp.broker.routing;

import java.util.UUID;

/** A request to the customer's home region for one of their orders, which it wrote and so already holds. */
public record OrderLookup(String customerId, UUID orderId) {
}
