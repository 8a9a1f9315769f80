package org.brokerapp.loadtest.report;

/** Rates over a window, per second: what was asked for and what was achieved. */
public record Throughput(double targetOrders, double ordersSent, double ordersAccepted, double ordersFailed, double marketFilled,
                         double targetTicks, double ticks, double expectedTrades, double fills, double floorWrites) {
}
