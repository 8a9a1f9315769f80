package org.brokerapp.broker.book;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;

/**
 * An open LIMIT or STOP order waiting in a {@link TriggerIndex} for a tick of its symbol.
 *
 * @param orderId      identity of the order, unique across the deployment
 * @param customerId   owner of the order
 * @param symbol       the ticker whose ticks may trigger it
 * @param side         which way it trades
 * @param type         LIMIT or STOP; MARKET orders trade at once and never rest
 * @param quantity     shares, all of which trade at the triggering tick's price
 * @param triggerPrice in {@link org.brokerapp.broker.core.PriceUnits PriceUnits}: the limit price of a LIMIT order, the stop price of a STOP order
 * @param placedAt     when it was placed, by the placing broker's clock (the write timestamp of its open_orders row,
 *                     which the delete after its decision must exceed, whatever the deciding broker's clock says)
 * @param expiresAt    when a DAY or GTD order expires (its decider expires it then); null for one good till cancelled
 */
public record RestingOrder(UUID orderId, String customerId, String symbol, Side side, OrderType type,
                           long quantity, long triggerPrice, Instant placedAt, Instant expiresAt) {

    /** An order good till cancelled. */
    public RestingOrder(UUID orderId, String customerId, String symbol, Side side, OrderType type, long quantity, long triggerPrice,
                        Instant placedAt) {
        this(orderId, customerId, symbol, side, type, quantity, triggerPrice, placedAt, null);
    }

    public RestingOrder {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(customerId, "customerId");
        Objects.requireNonNull(symbol, "symbol");
        Objects.requireNonNull(side, "side");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(placedAt, "placedAt");
        if (type == OrderType.MARKET) {
            throw new IllegalArgumentException("a MARKET order never rests, order " + orderId);
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be > 0, was " + quantity + " in order " + orderId);
        }
        if (triggerPrice <= 0) {
            throw new IllegalArgumentException("triggerPrice must be > 0 units, was " + triggerPrice + " in order " + orderId);
        }
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
            case MARKET -> throw new IllegalStateException("a MARKET order never rests");
        };
    }
}
