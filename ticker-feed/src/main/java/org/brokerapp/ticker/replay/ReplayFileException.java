package org.brokerapp.ticker.replay;

/** A replay file that cannot be read or has a bad row; the one-line message names the file and the line. */
public class ReplayFileException extends RuntimeException {

    public ReplayFileException(String message) {
        super(message);
    }

    public ReplayFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
