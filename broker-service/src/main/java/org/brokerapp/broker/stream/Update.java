package org.brokerapp.broker.stream;

/**
 * An update as a stream sends it: its {@code id:} ({@link StreamPosition}), the order event it
 * reports ({@code <orderId>/<type>}, so an event taken twice is sent once), its {@code event:} name
 * and its JSON, serialised once for every stream of the customer.
 */
record Update(long sequence, String id, String eventId, String name, String json) {
}
