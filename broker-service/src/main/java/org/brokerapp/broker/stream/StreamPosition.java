package org.brokerapp.broker.stream;

import java.util.Optional;

import org.brokerapp.broker.core.OrderProblem;

/**
 * Where a stream is: the {@code id:} of an update, {@code <epoch>.<sequence>}. The epoch names this
 * broker's run, so an id from before a restart (or from another instance) is known as such and the
 * client is told to read its orders again rather than resumed at a sequence that meant something else.
 */
record StreamPosition(String epoch, long sequence) {

    String id() {
        return epoch + "." + sequence;
    }

    /** The position a {@code Last-Event-ID} header names; empty when there is none; 400 when it is not one. */
    static Optional<StreamPosition> parse(String lastEventId) {
        if (lastEventId == null || lastEventId.isBlank()) {
            return Optional.empty();
        }
        int dot = lastEventId.indexOf('.');
        try {
            if (dot < 1 || lastEventId.length() > 40 || !lastEventId.substring(0, dot).chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'z')) {
                throw new NumberFormatException();
            }
            long sequence = Long.parseLong(lastEventId.substring(dot + 1));
            if (sequence < 0) {
                throw new NumberFormatException();
            }
            return Optional.of(new StreamPosition(lastEventId.substring(0, dot), sequence));
        } catch (NumberFormatException e) {
            throw new OrderProblem.Invalid("Last-Event-ID must be the id of an update this stream sent, <epoch>.<sequence>");
        }
    }
}
