package org.brokerapp.broker.account;

/**
 * A customer's order rate at their owner: a token bucket of {@code perSecond} new orders, refilled
 * continuously. The owner is one instance in the customer's home region, and every placement of the
 * customer comes through it whichever region or instance received it, so this is one limit across
 * them all. Guarded by the account's monitor.
 */
final class OrderRate {

    private static final long SECOND_NANOS = 1_000_000_000L;

    private double tokens = -1;
    private long refilledAtNanos;

    /** Whether a new order may be placed at {@code nowNanos}: false if the customer placed {@code perSecond} in the last second already. */
    boolean admits(long nowNanos, int perSecond) {
        if (tokens < 0) {
            tokens = perSecond;
        } else {
            tokens = Math.min(perSecond, tokens + (double) (nowNanos - refilledAtNanos) * perSecond / SECOND_NANOS);
        }
        refilledAtNanos = nowNanos;
        return tokens >= 1;
    }

    /**
     * Counts a new order the owner reserved, after {@link #admits}: an order refused for want of cash
     * or of room takes no permit, so the owner's second try after catching up on the ledger does not
     * count one placement twice.
     */
    void take() {
        tokens--;
    }
}
