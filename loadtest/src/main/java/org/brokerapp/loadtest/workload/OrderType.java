package org.brokerapp.loadtest.workload;

/** The order types of the broker's API, as the harness places them. */
public enum OrderType {
    LIMIT,
    STOP,
    MARKET
}
