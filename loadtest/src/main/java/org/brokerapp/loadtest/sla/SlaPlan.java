package org.brokerapp.loadtest.sla;

/**
 * How an SLA search steps the load.
 *
 * @param slaMillis        p99 ticker-to-fill must stay under this (default 10 ms)
 * @param startOrders      order rate of the first step; ticks and floor writes scale with it
 * @param stepOrders       added to the order rate at each step (used when {@code factor} is 0)
 * @param factor           when > 1, each step multiplies the order rate by it instead
 * @param maxSteps         the search stops after this many steps even if all passed
 * @param minAchievedShare a step is sustained only if at least this share of the target order rate was accepted
 * @param maxErrorShare    a step passes only if at most this share of its orders failed
 */
public record SlaPlan(double slaMillis, double startOrders, double stepOrders, double factor, int maxSteps, double minAchievedShare,
                      double maxErrorShare) {

    public SlaPlan {
        if (!(slaMillis > 0)) {
            throw new IllegalArgumentException("SLA must be > 0 ms, was " + slaMillis);
        }
        if (!(startOrders > 0)) {
            throw new IllegalArgumentException("SLA search start rate must be > 0, was " + startOrders);
        }
        if (factor == 0 && !(stepOrders > 0)) {
            throw new IllegalArgumentException("SLA search step must be > 0 orders/s, was " + stepOrders);
        }
        if (factor != 0 && !(factor > 1)) {
            throw new IllegalArgumentException("SLA search factor must be > 1, was " + factor);
        }
        if (maxSteps < 1) {
            throw new IllegalArgumentException("SLA search needs at least one step, was " + maxSteps);
        }
        if (!(minAchievedShare > 0 && minAchievedShare <= 1) || !(maxErrorShare >= 0 && maxErrorShare <= 1)) {
            throw new IllegalArgumentException("SLA search shares must be in (0, 1]");
        }
    }

    public static SlaPlan of(double slaMillis, double startOrders, double stepOrders, double factor, int maxSteps) {
        return new SlaPlan(slaMillis, startOrders, stepOrders, factor, maxSteps, 0.95, 0.01);
    }

    /** The order rate of step {@code i} (from 0). */
    public double ordersAt(int i) {
        return factor > 1 ? startOrders * Math.pow(factor, i) : startOrders + i * stepOrders;
    }
}
