package org.brokerapp.loadtest.check;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;

/** An order as {@code GET /api/orders} and {@code /api/transactions} show it (the fields the check needs). */
public record ApiOrder(String orderId, String clientOrderId, String symbol, String side, String type, long quantity,
                       BigDecimal limitPrice, BigDecimal stopPrice, String status, BigDecimal fillPrice, String filledBy, String timeInForce,
                       Instant expiresAt, Instant closedAt) {

    static ApiOrder of(JsonNode view) {
        return new ApiOrder(text(view, "orderId"), text(view, "clientOrderId"), text(view, "symbol"), text(view, "side"),
                text(view, "type"), view.path("quantity").asLong(), decimal(view, "limitPrice"), decimal(view, "stopPrice"),
                text(view, "status"), decimal(view, "fillPrice"), text(view, "filledBy"), text(view, "timeInForce"), instant(view, "expiresAt"),
                instant(view, "closedAt"));
    }

    static List<ApiOrder> listOf(Iterable<JsonNode> items) {
        List<ApiOrder> orders = new ArrayList<>();
        items.forEach(v -> orders.add(of(v)));
        return orders;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asString();
    }

    private static Instant instant(JsonNode node, String field) {
        String v = text(node, field);
        return v == null ? null : Instant.parse(v);
    }

    private static BigDecimal decimal(JsonNode node, String field) {
        String v = text(node, field);
        return v == null ? null : new BigDecimal(v);
    }
}
