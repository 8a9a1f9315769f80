package org.brokerapp.loadtest.workload;

import static org.assertj.core.api.Assertions.assertThat;

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

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
