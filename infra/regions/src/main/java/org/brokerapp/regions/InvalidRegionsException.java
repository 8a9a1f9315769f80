package org.brokerapp.regions;

/** The regions file is unreadable or describes an impossible deployment; the message says which line of thought failed. */
public class InvalidRegionsException extends IllegalArgumentException {

    public InvalidRegionsException(String message) {
        super(message);
    }

    public InvalidRegionsException(String message, Throwable cause) {
        super(message, cause);
    }
}
