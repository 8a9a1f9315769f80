package org.brokerapp.loadtest.cli;

/** A bad command line: the message is the one line the user sees. */
public final class UsageException extends IllegalArgumentException {

    public UsageException(String message) {
        super(message);
    }
}
