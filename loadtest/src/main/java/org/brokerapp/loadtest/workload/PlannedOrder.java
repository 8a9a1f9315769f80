package org.brokerapp.loadtest.workload;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.api.TimeInForce;

/**
 * One order the workload will place, with everything the harness needs to know about it later.
 *
 * @param marketable priced so that the symbol's next tick triggers it (always true for MARKET)
 * @param placedIn   the region whose broker receives the request; {@code symbol.home()} decides where it executes
 * @param price      limit price of a LIMIT, stop price of a STOP or STOP_LIMIT, null for MARKET
 * @param timeInForce GTC, DAY or GTD for a LIMIT or STOP, IOC for a MARKET
 * @param goodFor    a GTD order's life: it expires this long after it is sent
 */
public record PlannedOrder(String clientOrderId, int customer, TradedSymbol symbol, Side side, OrderType type, long quantity,
                           BigDecimal price, boolean marketable, String placedIn, TimeInForce timeInForce, Duration goodFor) {

    /** A LIMIT or STOP order good till cancelled, a MARKET order immediate or cancel. */
    public PlannedOrder(String clientOrderId, int customer, TradedSymbol symbol, Side side, OrderType type, long quantity, BigDecimal price,
                        boolean marketable, String placedIn) {
        this(clientOrderId, customer, symbol, side, type, quantity, price, marketable, placedIn,
                type == OrderType.MARKET ? TimeInForce.IOC : TimeInForce.GTC, null);
    }

    private static final BigDecimal STOP_LIMIT_UP = new BigDecimal("1.02");
    private static final BigDecimal STOP_LIMIT_DOWN = new BigDecimal("0.98");

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

    /** A STOP_LIMIT's limit: 2 % beyond its stop, so a marketable one fills at the tick that triggers it and a resting one never. */
    public BigDecimal stopLimit() {
        BigDecimal factor = side == Side.BUY ? STOP_LIMIT_UP : STOP_LIMIT_DOWN;
        return price.multiply(factor).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }

    /** The JSON body of {@code POST /api/orders}, sent now: a GTD order expires {@link #goodFor} from now (its retries send the same body). */
    public String json() {
        StringBuilder body = new StringBuilder(160).append("{\"clientOrderId\":\"").append(clientOrderId)
                .append("\",\"symbol\":\"").append(symbol.symbol())
                .append("\",\"side\":\"").append(side)
                .append("\",\"type\":\"").append(type)
                .append("\",\"quantity\":").append(quantity);
        if (type == OrderType.LIMIT) {
            body.append(",\"limitPrice\":").append(price.toPlainString());
        } else if (type.hasStop()) {
            body.append(",\"stopPrice\":").append(price.toPlainString());
        }
        if (type == OrderType.STOP_LIMIT) {
            body.append(",\"limitPrice\":").append(stopLimit().toPlainString());
        }
        body.append(",\"timeInForce\":\"").append(timeInForce).append('"');
        if (timeInForce == TimeInForce.GTD) {
            body.append(",\"expireAt\":\"").append(Instant.now().plus(goodFor).truncatedTo(ChronoUnit.MILLIS)).append('"');
        }
        return body.append('}').toString();
    }
}
