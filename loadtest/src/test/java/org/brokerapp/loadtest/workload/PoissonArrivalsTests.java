package org.brokerapp.loadtest.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PoissonArrivalsTests {

    private static final int N = 20_000;

    @Test
    void gapsAreExponentialAtTheSchedulesRate() {
        PoissonArrivals arrivals = new PoissonArrivals(RateSchedule.steady(10), 1);
        long[] at = offsets(arrivals, N);

        double meanGap = (at[N - 1] - at[0]) / 1e9 / (N - 1);
        double sumSquares = 0;
        for (int i = 1; i < N; i++) {
            double gap = (at[i] - at[i - 1]) / 1e9;
            sumSquares += (gap - meanGap) * (gap - meanGap);
        }
        double cv = Math.sqrt(sumSquares / (N - 2)) / meanGap;

        assertThat(meanGap).as("mean gap, s (10/s)").isBetween(0.095, 0.105);
        assertThat(cv).as("coefficient of variation: 1 for exponential gaps, 0 for a fixed rate").isBetween(0.95, 1.05);
    }

    @Test
    void theRampIsFollowedAndTheSameSeedGivesTheSameArrivals() {
        RateSchedule ramped = new RateSchedule(100, 10);
        long[] first = offsets(new PoissonArrivals(ramped, 7), N);
        long[] again = offsets(new PoissonArrivals(ramped, 7), N);
        long[] other = offsets(new PoissonArrivals(ramped, 8), N);

        long inRamp = java.util.Arrays.stream(first).filter(t -> t < 10_000_000_000L).count();
        assertThat(inRamp).as("about rate * ramp / 2 = 500 arrivals in the ramp").isBetween(420L, 580L);
        assertThat(again).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
    }

    @Test
    void arrivalsAreDrawnInOrder() {
        PoissonArrivals arrivals = new PoissonArrivals(RateSchedule.steady(10), 1);
        arrivals.offsetNanos(0);

        assertThatThrownBy(() -> arrivals.offsetNanos(5)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected operation 1");
    }

    private static long[] offsets(Arrivals arrivals, int n) {
        long[] at = new long[n];
        for (int i = 0; i < n; i++) {
            at[i] = arrivals.offsetNanos(i);
        }
        return at;
    }
}
