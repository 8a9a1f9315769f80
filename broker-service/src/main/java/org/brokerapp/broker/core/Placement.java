package org.brokerapp.broker.core;

/** The result of a placement: the order, and whether this request created it (false for a retry). */
public record Placement(Order order, boolean created) {
}
