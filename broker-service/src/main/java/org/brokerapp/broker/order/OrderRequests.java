package org.brokerapp.broker.order;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.api.TimeInForce;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.PriceUnits;
import org.brokerapp.broker.core.Validity;
import org.brokerapp.broker.session.ExchangeSessions;
import org.brokerapp.broker.web.Excerpt;
import org.brokerapp.regions.SymbolUniverse;
import org.springframework.stereotype.Component;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * Checks a placement request field by field and says exactly what is wrong: every refusal is a
 * 400 naming the field. The one place order input is validated.
 */
@Component
class OrderRequests {

    static final int MAX_CLIENT_ORDER_ID = 64;
    static final long MAX_QUANTITY = 1_000_000_000L;
    /** Prices as ticks carry them: at most 14 digits before the point (see ticker-feed's Tick). */
    static final BigDecimal MAX_PRICE = BigDecimal.TEN.pow(org.brokerapp.ticker.Tick.MAX_PRICE_INTEGER_DIGITS);
    /** The furthest a GTD order may be good for: a year, as GTC orders at most brokers. */
    static final Duration MAX_GOOD_FOR = Duration.ofDays(366);

    private final SymbolUniverse symbols;
    private final ExchangeSessions sessions;

    public OrderRequests(SymbolUniverse symbols, ExchangeSessions sessions) {
        this.symbols = symbols;
        this.sessions = sessions;
    }

    /**
     * The JSON body of a placement; every field optional here so that absence is reported as such.
     * {@code timeInForce} absent is GTC for a LIMIT or STOP order, IOC for a MARKET order.
     */
    public record PlaceOrderRequest(String clientOrderId, String symbol, Side side, OrderType type,
                                    @JsonDeserialize(using = NumberNotString.class) BigDecimal quantity,
                                    BigDecimal limitPrice, BigDecimal stopPrice, TimeInForce timeInForce, Instant expireAt) {

        public PlaceOrderRequest(String clientOrderId, String symbol, Side side, OrderType type, BigDecimal quantity, BigDecimal limitPrice,
                                 BigDecimal stopPrice) {
            this(clientOrderId, symbol, side, type, quantity, limitPrice, stopPrice, null, null);
        }
    }

    public PlaceOrder validate(String customerId, PlaceOrderRequest r) {
        if (r == null) {
            throw new OrderProblem.Invalid("the request body is empty");
        }
        String clientOrderId = required(r.clientOrderId(), "clientOrderId");
        if (clientOrderId.isBlank() || clientOrderId.length() > MAX_CLIENT_ORDER_ID || !clientOrderId.matches("[\\x21-\\x7E]+")) {
            throw new OrderProblem.Invalid("clientOrderId must be 1 to " + MAX_CLIENT_ORDER_ID + " printable characters without spaces");
        }
        String symbol = required(r.symbol(), "symbol");
        if (symbols.find(symbol).isEmpty()) {
            throw new OrderProblem.Invalid("unknown symbol '" + printable(symbol) + "'");
        }
        Side side = required(r.side(), "side");
        OrderType type = required(r.type(), "type");
        long quantity = quantity(required(r.quantity(), "quantity"));
        if (type == OrderType.MARKET && (r.limitPrice() != null || r.stopPrice() != null)) {
            throw new OrderProblem.Invalid("a MARKET order takes no limitPrice or stopPrice");
        }
        if (type.hasLimit()) {
            required(r.limitPrice(), "limitPrice");
        }
        if (type.hasStop()) {
            required(r.stopPrice(), "stopPrice");
        }
        if (!type.hasLimit() && r.limitPrice() != null) {
            throw new OrderProblem.Invalid("give stopPrice only, not limitPrice: a " + type + " order has no limit");
        }
        if (!type.hasStop() && r.stopPrice() != null) {
            throw new OrderProblem.Invalid("give limitPrice only, not stopPrice: a " + type + " order has no stop");
        }
        BigDecimal limit = type.hasLimit() ? price(r.limitPrice(), "limitPrice") : null;
        BigDecimal stop = type.hasStop() ? price(r.stopPrice(), "stopPrice") : null;
        TimeInForce timeInForce = timeInForce(type, r.timeInForce());
        Instant expireAt = expireAt(timeInForce, r.expireAt());
        if (timeInForce == TimeInForce.DAY) {
            expireAt = sessions.dayOrderExpiry(symbols.get(symbol).exchange(), Instant.now());
        }
        return new PlaceOrder(customerId, clientOrderId, symbol, side, type, quantity, limit, stop, new Validity(timeInForce, expireAt));
    }

    /**
     * A MARKET order trades at once, whole, or is refused: IOC is all it can be. A LIMIT, STOP or
     * STOP_LIMIT order rests: DAY, GTC or GTD. IOC and FOK on a resting order need partial fills from the
     * tick's volume, which the matcher does not make yet: refused, not quietly made GTC.
     */
    private static TimeInForce timeInForce(OrderType type, TimeInForce asked) {
        if (type == OrderType.MARKET) {
            if (asked != null && asked != TimeInForce.IOC) {
                throw new OrderProblem.Invalid("a MARKET order trades at once or is refused: timeInForce IOC (or none), was " + asked);
            }
            return TimeInForce.IOC;
        }
        if (asked == TimeInForce.IOC || asked == TimeInForce.FOK) {
            throw new OrderProblem.Invalid("timeInForce " + asked + " is taken on MARKET orders only for now; a " + type
                    + " order takes DAY, GTC or GTD");
        }
        return asked == null ? TimeInForce.GTC : asked;
    }

    /** A GTD order's expiry: required, in the future, within {@link #MAX_GOOD_FOR}, to the millisecond (as the ledger keeps it). */
    private static Instant expireAt(TimeInForce timeInForce, Instant expireAt) {
        if (timeInForce != TimeInForce.GTD) {
            if (expireAt != null) {
                throw new OrderProblem.Invalid("expireAt is for GTD orders only; this order is " + timeInForce);
            }
            return null;
        }
        Instant now = Instant.now();
        Instant at = required(expireAt, "expireAt").truncatedTo(ChronoUnit.MILLIS);
        if (!at.isAfter(now)) {
            throw new OrderProblem.Invalid("expireAt must be in the future, was " + at);
        }
        if (at.isAfter(now.plus(MAX_GOOD_FOR))) {
            throw new OrderProblem.Invalid("expireAt must be at most " + MAX_GOOD_FOR.toDays() + " days ahead, was " + at);
        }
        return at;
    }

    /** Every check costs O(digits), never O(exponent): 1e-2147483647 and 1e999999999 are answered at once. */
    private static long quantity(BigDecimal q) {
        if (q.signum() <= 0) {
            throw new OrderProblem.Invalid("quantity must be > 0, was " + Excerpt.of(q));
        }
        if ((long) q.precision() - q.scale() > 10 || q.compareTo(BigDecimal.valueOf(MAX_QUANTITY)) > 0) {
            throw new OrderProblem.Invalid("quantity must be at most " + MAX_QUANTITY + ", was " + Excerpt.of(q));
        }
        if (q.scale() > 0 && q.stripTrailingZeros().scale() > 0) {
            throw new OrderProblem.Invalid("quantity must be a whole number of shares, was " + Excerpt.of(q));
        }
        return q.longValueExact();
    }

    private static BigDecimal price(BigDecimal price, String name) {
        if (price.signum() <= 0) {
            throw new OrderProblem.Invalid(name + " must be > 0, was " + Excerpt.of(price));
        }
        try {
            PriceUnits.of(price);
        } catch (ArithmeticException | IllegalArgumentException e) {
            throw new OrderProblem.Invalid(name + " must have at most " + PriceUnits.DECIMALS + " decimals and be below "
                    + MAX_PRICE.toPlainString() + ", was " + Excerpt.of(price));
        }
        if (price.compareTo(MAX_PRICE) >= 0) {
            throw new OrderProblem.Invalid(name + " must be below " + MAX_PRICE.toPlainString() + ", was " + Excerpt.of(price));
        }
        return price.stripTrailingZeros().scale() < 2 ? price.setScale(2) : price.stripTrailingZeros();
    }

    private static <T> T required(T value, String field) {
        if (value == null) {
            throw new OrderProblem.Invalid(field + " is required");
        }
        return value;
    }

    private static String printable(String s) {
        return Excerpt.of(s);
    }
}
