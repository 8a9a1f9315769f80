package org.brokerapp.loadtest.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RateScheduleTests {

    @Test
    void aSteadyRateSpacesOperationsEvenly() {
        RateSchedule s = RateSchedule.steady(100);

        assertThat(s.offsetNanos(0)).isZero();
        assertThat(s.offsetNanos(1)).isEqualTo(10_000_000);
        assertThat(s.offsetNanos(250)).isEqualTo(2_500_000_000L);
    }

    @Test
    void aRampCountsHalfTheFullRateOverItsLengthThenGoesSteady() {
        RateSchedule s = new RateSchedule(100, 10);

        // 500 operations in the 10 s ramp (the triangle), then 100/s
        assertThat(s.offsetNanos(500)).isEqualTo(10_000_000_000L);
        assertThat(s.offsetNanos(600)).isEqualTo(11_000_000_000L);
        assertThat(s.offsetNanos(125)).isEqualTo(5_000_000_000L);
        assertThat(s.rateAt(5)).isEqualTo(50);
        assertThat(s.rateAt(20)).isEqualTo(100);
        for (long i = 1; i < 1000; i++) {
            assertThat(s.offsetNanos(i)).isGreaterThan(s.offsetNanos(i - 1));
        }
    }

    @Test
    void nonsenseRatesAreRefused() {
        assertThatThrownBy(() -> RateSchedule.steady(0)).hasMessageContaining("rate must be > 0");
        assertThatThrownBy(() -> new RateSchedule(5, -1)).hasMessageContaining("ramp-up must be >= 0");
    }
}
