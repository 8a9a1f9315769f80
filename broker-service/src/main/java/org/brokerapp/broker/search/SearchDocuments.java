package org.brokerapp.broker.search;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.brokerapp.broker.events.OrderEvent;

/**
 * How an {@link OrderEvent} becomes documents. Each event carries the whole order, so the order
 * document is the event minus its delivery fields; a FILLED event also makes a trade document.
 * Decimals stay exact strings; trades add {@code priceE4} and {@code notionalE4} (units of
 * 0.0001, rounded half-even beyond four decimals) so sums and VWAP need no floating-point prices.
 */
final class SearchDocuments {

    private static final BigDecimal E4 = BigDecimal.valueOf(10_000);

    private SearchDocuments() {
    }

    /**
     * The order document's external version: a later state never loses to an earlier one,
     * whatever order the events arrive in (a replayed PLACED after its FILLED is refused with a
     * version conflict, which the indexer counts as done). FILLED, CANCELLED and EXPIRED are all final.
     */
    static long rank(OrderEvent.Type type) {
        return type == OrderEvent.Type.PLACED ? 1 : 2;
    }

    /**
     * {@code doc} with the fields it lacks taken from {@code placement} (another document of the
     * same order): a fill or cancel decided by the matcher does not know the placement's fields
     * ({@code placedAt}, {@code clientOrderId}, a cancel not even side, type or quantity).
     */
    static Map<String, Object> withPlacement(Map<String, Object> doc, Map<String, Object> placement) {
        if (placement == null) {
            return doc;
        }
        Map<String, Object> completed = new LinkedHashMap<>(doc);
        completed.replaceAll((field, value) -> missing(value) && placement.get(field) != null ? placement.get(field) : value);
        return completed;
    }

    /** A value the event did not know: absent, or a quantity of 0 (an order's quantity is positive). */
    private static boolean missing(Object value) {
        return value == null || value instanceof Number n && n.longValue() == 0;
    }

    static Map<String, Object> order(OrderEvent e) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("orderId", e.orderId().toString());
        doc.put("customerId", e.customerId());
        doc.put("clientOrderId", e.clientOrderId());
        doc.put("symbol", e.symbol());
        doc.put("exchange", e.exchange());
        doc.put("side", e.side() == null ? null : e.side().name());
        doc.put("orderType", e.orderType() == null ? null : e.orderType().name());
        doc.put("status", e.order().status().name());
        doc.put("quantity", e.quantity());
        doc.put("limitPrice", text(e.limitPrice()));
        doc.put("stopPrice", text(e.stopPrice()));
        doc.put("reservedCash", text(e.reservedCash()));
        doc.put("placedRegion", e.placedRegion());
        doc.put("placedAt", time(e.placedAt()));
        doc.put("fillPrice", text(e.fillPrice()));
        doc.put("filledAt", time(e.filledAt()));
        doc.put("filledBy", e.filledBy());
        doc.put("closedAt", time(e.closedAt()));
        doc.put("timeInForce", e.timeInForce() == null ? null : e.timeInForce().name());
        doc.put("expiresAt", time(e.expiresAt()));
        doc.put("lastEvent", e.type().name());
        doc.put("region", e.region());
        doc.put("durableAt", time(e.durableAt()));
        return doc;
    }

    static Map<String, Object> trade(OrderEvent e) {
        if (e.type() != OrderEvent.Type.FILLED) {
            throw new IllegalArgumentException("only a FILLED event is a trade: " + e.eventId());
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("orderId", e.orderId().toString());
        doc.put("customerId", e.customerId());
        doc.put("clientOrderId", e.clientOrderId());
        doc.put("symbol", e.symbol());
        doc.put("exchange", e.exchange());
        doc.put("side", e.side() == null ? null : e.side().name());
        doc.put("orderType", e.orderType() == null ? null : e.orderType().name());
        doc.put("quantity", e.quantity());
        doc.put("fillPrice", e.fillPrice().toPlainString());
        doc.put("priceE4", e4(e.fillPrice()));
        doc.put("notionalE4", e4(e.notional()));
        doc.put("placedRegion", e.placedRegion());
        doc.put("placedAt", time(e.placedAt()));
        doc.put("filledAt", time(e.filledAt()));
        doc.put("filledBy", e.filledBy());
        doc.put("tickTime", time(e.tickTime()));
        doc.put("receivedAt", time(e.receivedAt()));
        doc.put("durableAt", time(e.durableAt()));
        doc.put("fillLatencyMicros", e.tickTime() == null ? null : micros(Duration.between(e.tickTime(), e.durableAt())));
        doc.put("region", e.region());
        return doc;
    }

    static long e4(BigDecimal value) {
        return value.multiply(E4).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
    }

    static BigDecimal fromE4(double sumE4) {
        return BigDecimal.valueOf(sumE4).divide(E4);
    }

    private static long micros(Duration d) {
        return d.toNanos() / 1_000;
    }

    private static String text(BigDecimal value) {
        return value == null ? null : value.toPlainString();
    }

    private static String time(Instant value) {
        return value == null ? null : value.toString();
    }
}
