package org.brokerapp.broker.ops;

/**
 * Readiness that a rebalance does not take away: ready once everything assigned was held while the
 * order path's loops ran, and from then on for as long as they run; a stopped loop resets it, so the
 * instance must hold everything again before it is ready.
 */
final class ServingLatch {

    private boolean served;

    /** The readiness after this observation of the loops and of what is held. */
    synchronized boolean update(boolean loopsRun, boolean holdingEverything) {
        served = loopsRun && (served || holdingEverything);
        return served;
    }
}
