package org.brokerapp.loadtest.workload;

import java.math.BigDecimal;

import org.brokerapp.loadtest.workload.PlannedOrder;

/** An order a broker accepted (HTTP 201/200), as the harness planned it and as the broker answered. */
public record AcceptedOrder(PlannedOrder planned, String orderId, String status, BigDecimal fillPrice) {
}
