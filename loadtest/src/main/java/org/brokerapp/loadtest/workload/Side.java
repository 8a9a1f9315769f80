package org.brokerapp.loadtest.workload;

public enum Side {
    BUY,
    SELL
}
