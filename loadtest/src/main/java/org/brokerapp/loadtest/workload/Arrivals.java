package org.brokerapp.loadtest.workload;

/** When an open loop's operations are due, as offsets from the loop's start; asked for in order (0, 1, 2, ...). */
public sealed interface Arrivals permits RateSchedule, PoissonArrivals {

    /** Nanoseconds from the loop's start at which operation {@code i} (from 0) is intended to start. */
    long offsetNanos(long i);
}
