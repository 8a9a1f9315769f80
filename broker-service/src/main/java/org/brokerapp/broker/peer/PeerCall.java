package org.brokerapp.broker.peer;

/**
 * What a verified internal call says about itself: the region whose broker signed it, and the
 * customer that broker authenticated (the call acts for that customer and no other).
 */
public record PeerCall(String region, String customerId) {
}
