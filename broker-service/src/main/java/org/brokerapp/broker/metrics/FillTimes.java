package org.brokerapp.broker.metrics;

import java.time.Duration;
import java.time.Instant;

/**
 * When a filled tick passed each step of its way: its event time (the feed's clock) and this
 * broker's receipt of it on the wall clock, then its receipt, the matcher's decision and the fill
 * durable on {@link System#nanoTime()}. The three legs, {@link #tickToReceipt}, {@link #receiptToDecision}
 * and {@link #decisionToFill}, add up to {@link #tickToFill}.
 */
public record FillTimes(Instant tickEvent, Instant received, long receivedNanos, long decidedNanos, long durableNanos) {

    /** The feed's send and Kafka's delivery: the feed's clock against this broker's, the same clock on one machine. */
    public Duration tickToReceipt() {
        return Duration.between(tickEvent, received);
    }

    /** The wait for the matcher's turn (behind the commands queued before it) and the match. */
    public Duration receiptToDecision() {
        return Duration.ofNanos(decidedNanos - receivedNanos);
    }

    /** The fill's ledger write, and the ledger read before it for an order taken over. */
    public Duration decisionToFill() {
        return Duration.ofNanos(durableNanos - decidedNanos);
    }

    public Duration receiptToFill() {
        return Duration.ofNanos(durableNanos - receivedNanos);
    }

    public Duration tickToFill() {
        return tickToReceipt().plus(receiptToFill());
    }
}
