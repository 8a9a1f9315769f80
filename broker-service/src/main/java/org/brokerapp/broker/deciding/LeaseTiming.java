package org.brokerapp.broker.deciding;

import java.time.Duration;

/**
 * The timing of a decision lease ({@link DecisionLeases}), and the inequality that makes it a fence.
 *
 * <p>A lease row lives {@code ttl} after its last renewal reached Cassandra, less up to
 * {@link #TTL_RESOLUTION} (TTLs count whole seconds). Its holder decides only until {@code validFor}
 * after it <em>sent</em> its last successful renewal (sent is before reached, so this counts from an
 * earlier instant than the row's TTL does), and every write it starts by then ends within the
 * Cassandra request timeout. So if {@code validFor + request timeout + TTL_RESOLUTION < ttl}, every
 * write of the old holder has ended before the row can lapse and a new holder can take it. Only
 * durations are compared, each measured on one host's clock: no two clocks need to agree, only
 * run at about the same rate (the slack left over, at least {@link #MIN_SLACK}, covers that).
 *
 * <p>{@code renewEvery} is how often a holder renews: {@code validFor} covers at least two renewal
 * periods, so one renewal that fails or is slow does not interrupt deciding.
 *
 * @param renewEvery how often the held leases are renewed (one conditional write per group)
 * @param validFor   how long after sending its last successful renewal a holder may start a decision
 * @param ttl        the lease row's TTL, refreshed by each renewal
 */
record LeaseTiming(Duration renewEvery, Duration validFor, Duration ttl) {

    /** Cassandra's TTLs count whole seconds: a row may expire up to this much early. */
    static final Duration TTL_RESOLUTION = Duration.ofSeconds(1);
    /** What the fence keeps in hand beyond the inequality, for clocks that run at slightly different rates. */
    static final Duration MIN_SLACK = Duration.ofSeconds(1);

    /**
     * Renew every 3 s, decide for 7 s after a renewal was sent, rows live 15 s: with the 5 s request
     * timeout, 7 + 5 + 1 = 13 s &lt; 15 s (2 s slack). One Paxos round per group every 3 s instead of
     * every second; the price is that a killed holder's partitions wait up to 15 s (was 10 s).
     */
    public static final LeaseTiming DEFAULT = new LeaseTiming(Duration.ofSeconds(3), Duration.ofSeconds(7), Duration.ofSeconds(15));

    public LeaseTiming {
        if (renewEvery.isNegative() || renewEvery.isZero()) {
            throw new IllegalArgumentException("renewEvery must be positive: " + renewEvery);
        }
        if (validFor.compareTo(renewEvery.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("validFor " + validFor + " must cover two renewals (" + renewEvery.multipliedBy(2)
                    + "), or one slow renewal stops the holder deciding");
        }
        if (ttl.toMillis() % 1000 != 0) {
            throw new IllegalArgumentException("ttl must be whole seconds (Cassandra TTLs are): " + ttl);
        }
    }

    /**
     * Refuses a request timeout that would let a write started at the end of the validity outlive the
     * row: {@code validFor + requestTimeout + TTL_RESOLUTION + MIN_SLACK <= ttl}.
     */
    public LeaseTiming requireFence(Duration requestTimeout) {
        Duration worst = validFor.plus(requestTimeout).plus(TTL_RESOLUTION).plus(MIN_SLACK);
        if (worst.compareTo(ttl) > 0) {
            throw new IllegalStateException("decision leases are no fence with a Cassandra request timeout of " + requestTimeout.toMillis()
                    + " ms: validity " + validFor.toSeconds() + " s + request timeout + " + TTL_RESOLUTION.toSeconds() + " s TTL resolution + "
                    + MIN_SLACK.toSeconds() + " s slack must not exceed the lease TTL " + ttl.toSeconds() + " s; lower spring.cassandra.request.timeout to at most "
                    + ttl.minus(validFor).minus(TTL_RESOLUTION).minus(MIN_SLACK).toMillis() + " ms");
        }
        return this;
    }

    /** The instant (in {@link System#nanoTime()} terms) until which a renewal sent at {@code sentNanos} lets its holder decide. */
    long validUntil(long sentNanos) {
        return sentNanos + validFor.toNanos();
    }

    /** Whether held leases renewed at {@code lastRenewalSentNanos} are due for renewal at {@code nowNanos}. */
    boolean renewalDue(long lastRenewalSentNanos, long nowNanos) {
        return nowNanos - lastRenewalSentNanos >= renewEvery.toNanos();
    }

    int ttlSeconds() {
        return (int) ttl.toSeconds();
    }
}
