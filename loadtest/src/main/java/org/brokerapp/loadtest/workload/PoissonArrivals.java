package org.brokerapp.loadtest.workload;

import java.util.SplittableRandom;

/**
 * Arrivals at random, a Poisson process at a {@link RateSchedule}'s rate (its ramp too): for a
 * sampler, not a load. Samples taken at Poisson times see the system as it is on average (PASTA,
 * "Poisson arrivals see time averages"); a sampler at a fixed rate beside a load at fixed rates
 * keeps landing at the same point of the load's cycle. The demo's floor writes, 10 a second, fell
 * on every other order (20 a second) and on a tick of each region (30 a second each), every time.
 * Seeded, so a run's arrivals are reproducible.
 */
public final class PoissonArrivals implements Arrivals {

    private final RateSchedule rate;
    private final SplittableRandom random;
    private double count;
    private long next;

    public PoissonArrivals(RateSchedule rate, long seed) {
        this.rate = rate;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public long offsetNanos(long i) {
        if (i != next) {
            throw new IllegalArgumentException("Poisson arrivals are drawn in order: expected operation " + next + ", was " + i);
        }
        next++;
        // unit-rate exponential gaps on the count axis, mapped through the schedule's count curve: a Poisson process at its rate
        count += -Math.log(1 - random.nextDouble());
        return rate.offsetNanosAt(count);
    }
}
