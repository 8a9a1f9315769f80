package org.brokerapp.ticker.pacing;

import java.util.ArrayList;
import java.util.List;

/** A clock that moves only when told to, or when the pacer sleeps. */
final class FakeClock implements NanoClock {

    private long now;
    final List<Long> sleeps = new ArrayList<>();

    FakeClock(long start) {
        this.now = start;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void sleep(long nanos) {
        sleeps.add(nanos);
        now += nanos;
    }

    void advance(long nanos) {
        now += nanos;
    }
}
