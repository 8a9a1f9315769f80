package org.brokerapp.broker.events;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

import org.brokerapp.broker.order.Order;
import org.brokerapp.broker.order.OrderType;
import org.brokerapp.broker.order.Side;

/**
 * What the broker publishes to its region's Kafka topic {@value #TOPIC} once a placement, fill
 * or cancel is durable in Cassandra (key: the customer id; value: {@link OrderEventCodec}'s
 * JSON). Each event carries the whole order as it stands after the change, so a consumer needs
 * no other event to know the order: a FILLED event alone makes a trade.
 *
 * <p>{@code eventId} ({@code <orderId>/<type>}) is the same for every publication of the same
 * change, so consumers can deduplicate a replay. Times: {@code tickTime} is the tick that
 * triggered a fill, {@code receivedAt} when this broker received that tick, {@code durableAt}
 * when the write was acknowledged (the start of indexing lag).
 *
 * @param eventId      {@code <orderId>/<type>}
 * @param type         what happened
 * @param region       the region whose broker published it
 */
public record OrderEvent(String eventId, Type type, UUID orderId, String customerId, String clientOrderId, String symbol,
                         String exchange, Side side, OrderType orderType, long quantity, BigDecimal limitPrice,
                         BigDecimal stopPrice, BigDecimal reservedCash, String placedRegion, Instant placedAt,
                         BigDecimal fillPrice, Instant filledAt, String filledBy, Instant closedAt, Instant tickTime,
                         Instant receivedAt, Instant durableAt, String region) {

    /** The topic in every region's Kafka, keyed by customer id. */
    public static final String TOPIC = "order-events";

    /** What happened to the order. */
    public enum Type {
        PLACED,
        FILLED,
        CANCELLED
    }

    public OrderEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(orderId, "orderId");
        requireText(customerId, "customerId");
        requireText(symbol, "symbol");
        Objects.requireNonNull(side, "side");
        Objects.requireNonNull(orderType, "orderType");
        Objects.requireNonNull(reservedCash, "reservedCash");
        requireText(placedRegion, "placedRegion");
        Objects.requireNonNull(placedAt, "placedAt");
        Objects.requireNonNull(durableAt, "durableAt");
        requireText(region, "region");
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive, was " + quantity);
        }
        if (!idOf(orderId, type).equals(eventId)) {
            throw new IllegalArgumentException("eventId must be " + idOf(orderId, type) + ", was " + eventId);
        }
        if (type == Type.FILLED && (fillPrice == null || filledAt == null || filledBy == null)) {
            throw new IllegalArgumentException("a FILLED event needs fillPrice, filledAt and filledBy");
        }
        if (type == Type.CANCELLED && closedAt == null) {
            throw new IllegalArgumentException("a CANCELLED event needs closedAt");
        }
    }

    /** The order was placed: written to the ledger at {@code durableAt}. */
    public static OrderEvent placed(Order order, Instant durableAt, String region) {
        return of(Type.PLACED, order, null, null, durableAt, region);
    }

    /** The order filled on the tick of {@code tickTime}, received at {@code receivedAt}; the fill was durable at {@code durableAt}. */
    public static OrderEvent filled(Order order, Instant tickTime, Instant receivedAt, Instant durableAt, String region) {
        return of(Type.FILLED, order, tickTime, receivedAt, durableAt, region);
    }

    /** The order was cancelled. */
    public static OrderEvent cancelled(Order order, Instant durableAt, String region) {
        return of(Type.CANCELLED, order, null, null, durableAt, region);
    }

    private static OrderEvent of(Type type, Order o, Instant tickTime, Instant receivedAt, Instant durableAt, String region) {
        return new OrderEvent(idOf(o.orderId(), type), type, o.orderId(), o.customerId(), o.clientOrderId(), o.symbol(), o.exchange(),
                o.side(), o.type(), o.quantity(), o.limitPrice(), o.stopPrice(), o.reservedCash(), o.placedRegion(), o.placedAt(),
                o.fillPrice(), o.filledAt(), o.filledBy(), o.closedAt(), tickTime, receivedAt, durableAt, region);
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
