package org.brokerapp.broker.events;

/** A record on {@code order-events} that is not an {@link OrderEvent}. */
public class MalformedOrderEventException extends RuntimeException {

    public MalformedOrderEventException(String message) {
        super(message);
    }

    public MalformedOrderEventException(String message, Throwable cause) {
        super(message, cause);
    }
}
