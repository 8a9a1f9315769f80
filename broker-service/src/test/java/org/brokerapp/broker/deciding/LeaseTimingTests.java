package org.brokerapp.broker.deciding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class LeaseTimingTests {

    private static final LeaseTiming TIMING = LeaseTiming.DEFAULT;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

    @Test
    void theDefaultTimingIsAFenceWithTheBrokersRequestTimeout() {
        assertThat(TIMING.requireFence(REQUEST_TIMEOUT)).isSameAs(TIMING);
        // the inequality itself, spelled out: validity + request timeout + TTL resolution < TTL
        assertThat(TIMING.validFor().plus(REQUEST_TIMEOUT).plus(LeaseTiming.TTL_RESOLUTION)).isLessThan(TIMING.ttl());
    }

    @Test
    void aRequestTimeoutThatOutlivesTheRowIsRefused() {
        assertThatThrownBy(() -> TIMING.requireFence(Duration.ofSeconds(15)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no fence")
                .hasMessageContaining("at most 6000 ms");
        assertThat(TIMING.requireFence(Duration.ofSeconds(6))).isSameAs(TIMING);
        assertThatThrownBy(() -> TIMING.requireFence(Duration.ofMillis(6001))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void validityMustCoverTwoRenewalsAndTheTtlWholeSeconds() {
        assertThatThrownBy(() -> new LeaseTiming(Duration.ofSeconds(3), Duration.ofSeconds(5), Duration.ofSeconds(15)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two renewals");
        assertThatThrownBy(() -> new LeaseTiming(Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofMillis(10_500)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole seconds");
        assertThatThrownBy(() -> new LeaseTiming(Duration.ZERO, Duration.ofSeconds(3), Duration.ofSeconds(10)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onAFakeClockAHolderDecidesForSevenSecondsAfterSendingARenewalAndRenewsEveryThree() {
        long sent = 1_000_000_000_000L; // any nanoTime origin: only differences count
        long until = TIMING.validUntil(sent);
        assertThat(until - sent).isEqualTo(Duration.ofSeconds(7).toNanos());

        assertThat(TIMING.renewalDue(sent, sent + Duration.ofMillis(2_999).toNanos())).isFalse();
        assertThat(TIMING.renewalDue(sent, sent + Duration.ofSeconds(3).toNanos())).isTrue();

        // one renewal lost at 3 s: the next at 6 s still finds the holder valid, so deciding never stops
        long secondTry = sent + Duration.ofSeconds(6).toNanos();
        assertThat(until - secondTry).isPositive();
        // both lost: the holder stops deciding at 7 s, and its last write ends by 12 s, before the row can lapse at 15 - 1 = 14 s
        long lastWriteEnds = until + REQUEST_TIMEOUT.toNanos();
        long earliestLapse = sent + TIMING.ttl().minus(LeaseTiming.TTL_RESOLUTION).toNanos();
        assertThat(lastWriteEnds).isLessThan(earliestLapse);
    }

    @Test
    void aNanoTimeThatWrapsIsComparedByDifference() {
        long sent = Long.MAX_VALUE - Duration.ofSeconds(1).toNanos();
        long until = TIMING.validUntil(sent); // overflows to negative: compare by difference, as DecisionLeases does
        assertThat(until - (sent + Duration.ofSeconds(6).toNanos())).isPositive();
        assertThat(until - (sent + Duration.ofSeconds(8).toNanos())).isNegative();
        assertThat(TIMING.renewalDue(sent, sent + Duration.ofSeconds(4).toNanos())).isTrue();
    }
}
