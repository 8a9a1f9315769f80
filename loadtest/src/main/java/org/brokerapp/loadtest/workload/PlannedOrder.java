package org.brokerapp.loadtest.workload;

import java.math.BigDecimal;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;

/**
 * One order the workload will place, with everything the harness needs to know about it later.
 *
 * @param marketable priced so that the symbol's next tick triggers it (always true for MARKET)
 * @param placedIn   the region whose broker receives the request; {@code symbol.home()} decides where it executes
 * @param price      limit price of a LIMIT, stop price of a STOP, null for MARKET
 */
public record PlannedOrder(String clientOrderId, int customer, TradedSymbol symbol, Side side, OrderType type, long quantity,
                           BigDecimal price, boolean marketable, String placedIn) {

    public boolean crossRegion() {
        return !placedIn.equals(symbol.home());
    }

    public String customerId() {
        return customerId(customer);
    }

    public static String customerId(int customer) {
        return "load-" + customer;
    }

    public static String password(int customer) {
        return "load-" + customer + "-pw";
    }

    /** The JSON body of {@code POST /api/orders}. */
    public String json() {
        StringBuilder body = new StringBuilder(160).append("{\"clientOrderId\":\"").append(clientOrderId)
                .append("\",\"symbol\":\"").append(symbol.symbol())
                .append("\",\"side\":\"").append(side)
                .append("\",\"type\":\"").append(type)
                .append("\",\"quantity\":").append(quantity);
        if (type == OrderType.LIMIT) {
            body.append(",\"limitPrice\":").append(price.toPlainString());
        } else if (type == OrderType.STOP) {
            body.append(",\"stopPrice\":").append(price.toPlainString());
        }
        return body.append('}').toString();
    }
}
