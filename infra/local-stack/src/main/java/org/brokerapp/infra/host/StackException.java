package org.brokerapp.infra.host;

/** Something the person running the stack can act on; the message is one line that says what. */
public class StackException extends RuntimeException {

    public StackException(String message) {
        super(message);
    }

    public StackException(String message, Throwable cause) {
        super(message, cause);
    }
}
