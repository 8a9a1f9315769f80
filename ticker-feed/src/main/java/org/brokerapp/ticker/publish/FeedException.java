package org.brokerapp.ticker.publish;

/** The feed cannot run (Kafka unreachable, topic not creatable, ...); the message is one line. */
public class FeedException extends RuntimeException {

    public FeedException(String message) {
        super(message);
    }

    public FeedException(String message, Throwable cause) {
        super(message, cause);
    }
}
