package org.brokerapp.loadtest.check;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.databind.JsonNode;

/** A customer's balances as {@code GET /api/holdings} shows them. */
public record ApiHoldings(BigDecimal cash, BigDecimal reservedCash, BigDecimal availableCash, Map<String, Long> positions) {

    static ApiHoldings of(JsonNode view) {
        Map<String, Long> positions = new TreeMap<>();
        JsonNode p = view.path("positions");
        p.propertyNames().forEach(symbol -> positions.put(symbol, p.get(symbol).asLong()));
        return new ApiHoldings(new BigDecimal(view.path("cash").asString()), new BigDecimal(view.path("reservedCash").asString()),
                new BigDecimal(view.path("availableCash").asString()), positions);
    }
}
