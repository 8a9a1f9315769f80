package org.brokerapp.broker.events;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonFormat;
import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.api.TimeInForce;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.core.Validity;

/**
 * Something that happened to an order, published to the region's Kafka topic {@code order-events}
 * (key: customer id) once it is durable in Cassandra. The stream carries orders placed away to the
 * region matching their symbol, fills and cancels back to the customer's owner, cancel requests to
 * the decider, and feeds search. Decimals travel as strings, so no consumer rounds a price.
 *
 * @param eventId    {@code <orderId>/<type>}: one event of each type per order, so a replay is recognisable
 * @param tickTime   for a fill: the event time of the tick that triggered it
 * @param receivedAt for a fill: when the deciding broker received that tick
 * @param durableAt  when the write this event reports was acknowledged (absent for a cancel request)
 * @param region     the region whose broker published the event
 * @param timeInForce how long the order may rest (absent in events from before time in force: the order type's default)
 * @param expiresAt  when a DAY or GTD order expires
 *
 * <p>A fill decided by the matcher carries what matching keeps of the order (no
 * {@code clientOrderId}, {@code reservedCash}, {@code placedRegion}, {@code placedAt} or {@code timeInForce}), a cancel or expiry
 * less still (no side, type or quantity: 0): the order's PLACED event has those. The compact constructor refuses an event that cannot be one (a wrong id, a fill without its
 * price), so a decoded record is either a whole event or a {@link MalformedOrderEventException}.
 */
public record OrderEvent(String eventId, Type type, UUID orderId, String customerId, String clientOrderId, String symbol, String exchange,
                         Side side, OrderType orderType, long quantity,
                         @JsonFormat(shape = JsonFormat.Shape.STRING) BigDecimal limitPrice,
                         @JsonFormat(shape = JsonFormat.Shape.STRING) BigDecimal stopPrice,
                         @JsonFormat(shape = JsonFormat.Shape.STRING) BigDecimal reservedCash,
                         String placedRegion, Instant placedAt,
                         @JsonFormat(shape = JsonFormat.Shape.STRING) BigDecimal fillPrice,
                         Instant filledAt, String filledBy, Instant closedAt, Instant tickTime, Instant receivedAt, Instant durableAt,
                         String region, TimeInForce timeInForce, Instant expiresAt) {

    /**
     * PLACED (an order accepted; a MARKET order comes FILLED), FILLED, CANCELLED, EXPIRED (a DAY or GTD order past its time), and
     * CANCEL_REQUESTED (for the decider).
     */
    public enum Type {
        PLACED,
        FILLED,
        CANCELLED,
        CANCEL_REQUESTED,
        EXPIRED
    }

    public OrderEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(orderId, "orderId");
        requireText(customerId, "customerId");
        requireText(symbol, "symbol");
        requireText(region, "region");
        if (type != Type.CANCEL_REQUESTED) {
            Objects.requireNonNull(durableAt, "durableAt");
        }
        if (quantity < 0) {
            throw new IllegalArgumentException("quantity must not be negative, was " + quantity);
        }
        if (!idOf(orderId, type).equals(eventId)) {
            throw new IllegalArgumentException("eventId must be " + idOf(orderId, type) + ", was " + eventId);
        }
        if (type == Type.FILLED && (fillPrice == null || filledAt == null || filledBy == null)) {
            throw new IllegalArgumentException("a FILLED event needs fillPrice, filledAt and filledBy");
        }
        if ((type == Type.CANCELLED || type == Type.EXPIRED) && closedAt == null) {
            throw new IllegalArgumentException("a " + type + " event needs closedAt");
        }
        if (type == Type.PLACED && timeInForce != null) {
            Validity.of(timeInForce, expiresAt); // refuses a validity that cannot be one (a GTD order without its expiry)
        }
    }

    /** An order as its owner wrote it: OPEN (LIMIT, STOP) or, for a MARKET order executed at once, FILLED. */
    public static OrderEvent placed(Order o, Instant durableAt, String region) {
        return of(o.status() == OrderStatus.FILLED ? Type.FILLED : Type.PLACED, o, null, null, durableAt, region);
    }

    /** A fill decided by the matcher holding the symbol, triggered by a tick of {@code tickTime}. */
    public static OrderEvent filled(Order o, Instant tickTime, Instant receivedAt, Instant durableAt, String region) {
        return of(Type.FILLED, o, tickTime, receivedAt, durableAt, region);
    }

    public static OrderEvent cancelled(Order o, Instant durableAt, String region) {
        return of(Type.CANCELLED, o, null, null, durableAt, region);
    }

    /** A DAY or GTD order expired by the matcher holding its symbol. */
    public static OrderEvent expired(Order o, Instant durableAt, String region) {
        return of(Type.EXPIRED, o, null, null, durableAt, region);
    }

    public static OrderEvent cancelRequested(Order o, String region) {
        return of(Type.CANCEL_REQUESTED, o, null, null, null, region);
    }

    /** The event for what the ledger says became of an order (FILLED, CANCELLED or EXPIRED). */
    public static OrderEvent outcome(Order o, String region) {
        return switch (o.status()) {
            case FILLED -> filled(o, null, null, o.filledAt(), region);
            case EXPIRED -> expired(o, o.closedAt(), region);
            case CANCELLED -> cancelled(o, o.closedAt(), region);
            case OPEN -> throw new IllegalArgumentException("order " + o.orderId() + " is open: no outcome yet");
        };
    }

    private static OrderEvent of(Type type, Order o, Instant tickTime, Instant receivedAt, Instant durableAt, String region) {
        // the validity travels with the placement's fields: a decider knows neither (see the class comment)
        Validity validity = o.clientOrderId() == null ? null : o.validity();
        return new OrderEvent(idOf(o.orderId(), type), type, o.orderId(), o.customerId(), o.clientOrderId(), o.symbol(), o.exchange(), o.side(),
                o.type(), o.quantity(), o.limitPrice(), o.stopPrice(), o.reservedCash(), o.placedRegion(), o.placedAt(), o.fillPrice(),
                o.filledAt(), o.filledBy(), o.closedAt(), tickTime, receivedAt, durableAt, region,
                validity == null ? null : validity.timeInForce(), validity == null ? null : validity.expiresAt());
    }

    /** The order as this event describes it; fields the event's publisher did not know are absent. */
    public Order order() {
        OrderStatus status = switch (type) {
            case PLACED, CANCEL_REQUESTED -> OrderStatus.OPEN;
            case FILLED -> OrderStatus.FILLED;
            case CANCELLED -> OrderStatus.CANCELLED;
            case EXPIRED -> OrderStatus.EXPIRED;
        };
        return new Order(orderId, customerId, clientOrderId, symbol, exchange, side, orderType, quantity, limitPrice, stopPrice, reservedCash,
                status, placedRegion, placedAt, fillPrice, filledAt, filledBy, closedAt, Validity.of(timeInForce, expiresAt));
    }

    /** Acted on by the matcher holding its symbol: an order to rest, or a cancel request; every other event by the customer's account. */
    public boolean forMatcher() {
        return rests() || type == Type.CANCEL_REQUESTED;
    }

    /** A resting LIMIT or STOP order for the matcher (as opposed to a MARKET order, placed FILLED). */
    public boolean rests() {
        return type == Type.PLACED && orderType != OrderType.MARKET;
    }

    /** The event id of {@code type} for an order: the same however often the change is published. */
    public static String idOf(UUID orderId, Type type) {
        return orderId + "/" + type;
    }

    /** The Kafka record key: a customer's events stay in order on one partition. */
    public String key() {
        return customerId;
    }

    /** Money that changed hands: fill price times quantity (FILLED only). */
    public BigDecimal notional() {
        if (fillPrice == null) {
            throw new IllegalStateException(type + " event " + eventId + " has no fill");
        }
        return fillPrice.multiply(BigDecimal.valueOf(quantity));
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is required");
        }
    }
}
