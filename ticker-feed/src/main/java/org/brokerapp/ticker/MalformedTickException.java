package org.brokerapp.ticker;

/** Bytes that are not a valid v1 tick; the message is one line and says what is wrong. */
public class MalformedTickException extends RuntimeException {

    public MalformedTickException(String problem) {
        super("malformed tick: " + problem);
    }
}
