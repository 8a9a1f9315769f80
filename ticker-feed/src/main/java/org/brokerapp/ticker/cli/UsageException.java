package org.brokerapp.ticker.cli;

/** The command line is wrong; the message is one line and says how. */
public class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }
}
