package org.brokerapp.broker.order;

import java.math.BigDecimal;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;

/**
 * A count read only from a JSON number: {@code "quantity":"10"} is a 400 naming the field, not ten
 * shares. Prices stay strings or numbers (decimals travel as strings so no client rounds them).
 */
final class NumberNotString extends ValueDeserializer<BigDecimal> {

    @Override
    public BigDecimal deserialize(JsonParser parser, DeserializationContext context) {
        if (!parser.currentToken().isNumeric()) {
            return (BigDecimal) context.handleUnexpectedToken(BigDecimal.class, parser);
        }
        return parser.getDecimalValue();
    }
}
