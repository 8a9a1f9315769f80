package org.brokerapp.ticker.pacing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RateScheduleTests {

    @ParameterizedTest(name = "{0}/s, burst {1}x for {2} ms: tick {3} at {4} ns")
    @CsvSource(textBlock = """
            # rate,  burst x, burst ms, index,      due (ns)
            1000,    1,       0,        0,          0
            1000,    1,       0,        1,          1000000
            1000,    1,       0,        999,        999000000
            50000,   1,       0,        1500000,    30000000000
            3,       1,       0,        1,          333333333
            1000,    5,       1000,     0,          0
            1000,    5,       1000,     4999,       999800000
            1000,    5,       1000,     5000,       1000000000
            1000,    5,       1000,     5001,       1001000000
            1000,    0.5,     2000,     999,        1998000000
            1000,    0.5,     2000,     1000,       2000000000
            1000,    5,       0,        1000,       1000000000
            """)
    void eachTickIsDueAtATimeComputedFromItsIndexAlone(double rate, double multiplier, long burstMillis, long index, long dueNanos) {
        RateSchedule schedule = new RateSchedule(rate, new Burst(multiplier, Duration.ofMillis(burstMillis)));

        assertThat(schedule.intendedNanos(index)).isEqualTo(dueNanos);
    }

    @Test
    void dueTimesNeverGoBackwardsAcrossTheEndOfABurst() {
        RateSchedule schedule = new RateSchedule(7_919, new Burst(3.3, Duration.ofMillis(1_234)));
        long previous = -1;
        for (long i = 0; i < 50_000; i++) {
            long due = schedule.intendedNanos(i);
            assertThat(due).isGreaterThanOrEqualTo(previous);
            previous = due;
        }
    }

    @ParameterizedTest
    @CsvSource({"0", "-1", "NaN", "Infinity"})
    void aRateThatIsNotPositiveIsRefused(double rate) {
        assertThatThrownBy(() -> new RateSchedule(rate, Burst.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rate must be > 0");
    }
}
