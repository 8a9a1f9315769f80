package org.brokerapp.broker.core;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * An order's id is a name-based UUID of its customer and client order id. A retried placement
 * therefore names the same row, in any region, and can never create a second order.
 */
public final class OrderIds {

    private OrderIds() {
    }

    public static UUID of(String customerId, String clientOrderId) {
        return UUID.nameUUIDFromBytes((customerId + '\u0000' + clientOrderId).getBytes(StandardCharsets.UTF_8));
    }
}
