package org.brokerapp.loadtest.measure;

import java.util.concurrent.atomic.LongAdder;

/** Running totals of what the harness did, safe from any thread. */
public final class Counters {

    public final LongAdder ordersSent = new LongAdder();
    public final LongAdder ordersAccepted = new LongAdder();
    public final LongAdder ordersFailed = new LongAdder();
    public final LongAdder marketFilled = new LongAdder();
    public final LongAdder ticksSent = new LongAdder();
    public final LongAdder ticksFailed = new LongAdder();
    public final LongAdder floorWrites = new LongAdder();
    public final LongAdder floorFailed = new LongAdder();

    public Snapshot snapshot() {
        return new Snapshot(System.nanoTime(), ordersSent.sum(), ordersAccepted.sum(), ordersFailed.sum(), marketFilled.sum(),
                ticksSent.sum(), ticksFailed.sum(), floorWrites.sum(), floorFailed.sum());
    }

    /** The totals at one instant. */
    public record Snapshot(long nanos, long ordersSent, long ordersAccepted, long ordersFailed, long marketFilled, long ticksSent,
                           long ticksFailed, long floorWrites, long floorFailed) {

        public Snapshot minus(Snapshot earlier) {
            return new Snapshot(nanos - earlier.nanos, ordersSent - earlier.ordersSent, ordersAccepted - earlier.ordersAccepted,
                    ordersFailed - earlier.ordersFailed, marketFilled - earlier.marketFilled, ticksSent - earlier.ticksSent,
                    ticksFailed - earlier.ticksFailed, floorWrites - earlier.floorWrites, floorFailed - earlier.floorFailed);
        }

        public double seconds() {
            return nanos / 1e9;
        }
    }
}
