package org.brokerapp.broker.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServingLatchTests {

    private final ServingLatch latch = new ServingLatch();

    @Test
    void notReadyUntilEverythingIsHeldWhileTheLoopsRun() {
        assertThat(latch.update(false, true)).isFalse();
        assertThat(latch.update(true, false)).isFalse();
        assertThat(latch.update(true, true)).isTrue();
    }

    @Test
    void aRebalanceWaitingForLeasesKeepsItReady() {
        latch.update(true, true);

        assertThat(latch.update(true, false)).as("partitions moved here wait for their leases").isTrue();
        assertThat(latch.update(true, true)).isTrue();
    }

    @Test
    void aStoppedLoopResetsItUntilEverythingIsHeldAgain() {
        latch.update(true, true);

        assertThat(latch.update(false, true)).isFalse();
        assertThat(latch.update(true, false)).as("the loop runs again, but not everything is held yet").isFalse();
        assertThat(latch.update(true, true)).isTrue();
    }
}
