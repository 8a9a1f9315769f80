package org.brokerapp.broker.book;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;

/**
 * An open order waiting in a {@link TriggerIndex} for a tick of its symbol: in the book of its
 * {@code type}, LIMIT or STOP. A STOP_LIMIT waits as a STOP until its stop triggers, and as a LIMIT
 * at its limit from then on (as does a BUY STOP gapped above its collar); {@code placedAs} keeps what
 * the customer placed.
 *
 * @param orderId      identity of the order, unique across the deployment
 * @param customerId   owner of the order
 * @param symbol       the ticker whose ticks may trigger it
 * @param side         which way it trades
 * @param type         the book it waits in: LIMIT or STOP; MARKET orders trade at once and never rest
 * @param quantity     shares, all of which trade at the triggering tick's price
 * @param triggerPrice in {@link org.brokerapp.broker.core.PriceUnits PriceUnits}: the limit price of a LIMIT order, the stop price of a STOP order
 * @param placedAt     when it was placed, by the placing broker's clock (the write timestamp of its open_orders row,
 *                     which the delete after its decision must exceed, whatever the deciding broker's clock says)
 * @param expiresAt    when a DAY or GTD order expires (its decider expires it then); null for one good till cancelled
 * @param placedAs     LIMIT, STOP or STOP_LIMIT, as the customer placed it
 * @param limitPrice   in price units: a STOP_LIMIT's limit, which it becomes a LIMIT at once triggered; 0 for the others
 */
public record RestingOrder(UUID orderId, String customerId, String symbol, Side side, OrderType type,
                           long quantity, long triggerPrice, Instant placedAt, Instant expiresAt, OrderType placedAs, long limitPrice) {

    /** A LIMIT or STOP order good till cancelled. */
    public RestingOrder(UUID orderId, String customerId, String symbol, Side side, OrderType type, long quantity, long triggerPrice,
                        Instant placedAt) {
        this(orderId, customerId, symbol, side, type, quantity, triggerPrice, placedAt, null);
    }

    /** A LIMIT or STOP order, placed as such. */
    public RestingOrder(UUID orderId, String customerId, String symbol, Side side, OrderType type, long quantity, long triggerPrice,
                        Instant placedAt, Instant expiresAt) {
        this(orderId, customerId, symbol, side, type, quantity, triggerPrice, placedAt, expiresAt, type, 0);
    }

    public RestingOrder {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(customerId, "customerId");
        Objects.requireNonNull(symbol, "symbol");
        Objects.requireNonNull(side, "side");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(placedAt, "placedAt");
        if (type != OrderType.LIMIT && type != OrderType.STOP) {
            throw new IllegalArgumentException("an order waits as a LIMIT or a STOP, not a " + type + ", order " + orderId);
        }
        if (placedAs == null || placedAs == OrderType.MARKET || (placedAs == OrderType.STOP_LIMIT) != (limitPrice > 0)) {
            throw new IllegalArgumentException("a " + placedAs + " order cannot rest with limit " + limitPrice + ", order " + orderId);
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be > 0, was " + quantity + " in order " + orderId);
        }
        if (triggerPrice <= 0) {
            throw new IllegalArgumentException("triggerPrice must be > 0 units, was " + triggerPrice + " in order " + orderId);
        }
    }

    /** The same order waiting as a LIMIT at {@code price} (in price units): a triggered STOP_LIMIT, or a BUY STOP gapped above its collar. */
    public RestingOrder limitAt(long price) {
        return new RestingOrder(orderId, customerId, symbol, side, OrderType.LIMIT, quantity, price, placedAt, expiresAt, placedAs, limitPrice);
    }

    /**
     * Whether a tick of this order's symbol at {@code price} (in {@link org.brokerapp.broker.core.PriceUnits PriceUnits}) triggers it:
     * a BUY LIMIT at or below its limit, a SELL LIMIT at or above it, a BUY STOP at or above its
     * stop, a SELL STOP at or below it. This is the reference every {@link TriggerIndex} agrees with.
     */
    public boolean triggeredBy(long price) {
        return switch (type) {
            case LIMIT -> side == Side.BUY ? price <= triggerPrice : price >= triggerPrice;
            case STOP -> side == Side.BUY ? price >= triggerPrice : price <= triggerPrice;
            case MARKET, STOP_LIMIT -> throw new IllegalStateException("an order waits as a LIMIT or a STOP");
        };
    }
}
