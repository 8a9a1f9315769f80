package org.brokerapp.broker.events;

/** The Kafka topics of the order path, in each region's Kafka; created by the broker at start-up. */
public final class EventTopics {

    /** Every placement, fill, cancel and cancel request this region's brokers made durable; keyed by customer id. */
    public static final String ORDER_EVENTS = "order-events";


    private EventTopics() {
    }
}
