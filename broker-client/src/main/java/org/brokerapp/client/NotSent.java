package org.brokerapp.client;

/**
 * An operation the harness did not send, because of a limit of its own (e.g. too many orders
 * already awaiting an answer). Counted as {@code "not sent (<reason>)"}, so a report never shows
 * the harness's own refusal as the system's failure or as a bare exception name.
 */
public final class NotSent extends RuntimeException {

    public NotSent(String reason) {
        super(reason, null, false, false);
    }
}
