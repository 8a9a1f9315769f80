package org.brokerapp.loadtest.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.junit.jupiter.api.Test;

class OpenLoopTests {

    @Test
    void intendedStartsKeepTheScheduleEvenWhenAnOperationIsSlow() throws InterruptedException {
        ConcurrentLinkedQueue<Long> intended = new ConcurrentLinkedQueue<>();
        try (OpenLoop loop = new OpenLoop("test", 100, start -> {
            intended.add(start);
            if (intended.size() == 5) {
                sleep(200); // a stall: later operations must keep their original intended times
            }
        })) {
            Thread.sleep(600);
        }
        Long[] starts = intended.toArray(Long[]::new);
        assertThat(starts.length).isBetween(30, 80);
        for (int i = 1; i < starts.length; i++) {
            assertThat(starts[i] - starts[i - 1]).isEqualTo(starts[1] - starts[0]);
        }
        assertThat(starts[1] - starts[0]).isEqualTo(10_000_000L);
    }

    @Test
    void withALeadEachOperationIsCalledAheadOfItsIntendedStartWhichKeepsTheSchedule() throws InterruptedException {
        ConcurrentLinkedQueue<long[]> calls = new ConcurrentLinkedQueue<>();
        try (OpenLoop loop = new OpenLoop("test", RateSchedule.steady(100), Duration.ofMillis(50), start -> calls.add(new long[] {System.nanoTime(), start}))) {
            Thread.sleep(600);
        }
        long[][] made = calls.toArray(long[][]::new);
        assertThat(made.length).isBetween(30, 80);
        long early = 0;
        for (int i = 0; i < made.length; i++) {
            early += made[i][1] - made[i][0] > 0 ? 1 : 0;
            if (i > 0) {
                assertThat(made[i][1] - made[i - 1][1]).isEqualTo(10_000_000L);
            }
        }
        assertThat(early).as("calls made before their intended start (50 ms ahead, so all but a stalled few)").isGreaterThan(made.length / 2);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
