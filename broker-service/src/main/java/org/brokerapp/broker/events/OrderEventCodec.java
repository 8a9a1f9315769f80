package org.brokerapp.broker.events;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The wire format of {@link OrderEvent}: UTF-8 JSON, one object, every field present (absent
 * values as {@code null}), decimals as strings (exact: {@code "295.10"}, never a binary double),
 * instants as ISO-8601 strings ({@code "2026-11-22T22:30:01.123Z"}), enums by name. Thread-safe.
 */
public final class OrderEventCodec {

    private final JsonMapper json = JsonMapper.builder()
            .changeDefaultPropertyInclusion(v -> JsonInclude.Value.construct(JsonInclude.Include.ALWAYS, JsonInclude.Include.ALWAYS))
            .withConfigOverride(java.math.BigDecimal.class, o -> o.setFormat(JsonFormat.Value.forShape(JsonFormat.Shape.STRING)))
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    public byte[] encode(OrderEvent event) {
        return json.writeValueAsBytes(event);
    }

    /** Decodes one event; a record that is not one (bad JSON, a missing or wrong field) is a {@link MalformedOrderEventException}. */
    public OrderEvent decode(byte[] value) {
        if (value == null) {
            throw new MalformedOrderEventException("empty record");
        }
        try {
            return json.readValue(value, OrderEvent.class);
        } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
            String text = new String(value, 0, Math.min(value.length, 200), StandardCharsets.UTF_8);
            throw new MalformedOrderEventException(rootMessage(e) + " in " + text, e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return message.lines().findFirst().orElse(message);
    }
}
