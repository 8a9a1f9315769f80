package org.brokerapp.broker.events;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The wire format of {@link OrderEvent} on {@code order-events} and between regions: UTF-8 JSON,
 * every field present (absent values as {@code null}), decimals as strings (exact: {@code "295.10"},
 * never a binary double), instants as ISO-8601 strings, enums by name. Its own mapper, so the format
 * does not change with the application's JSON settings. Thread-safe.
 */
@Component
public class OrderEventCodec {

    private final JsonMapper json = JsonMapper.builder()
            .changeDefaultPropertyInclusion(v -> JsonInclude.Value.construct(JsonInclude.Include.ALWAYS, JsonInclude.Include.ALWAYS))
            .withConfigOverride(BigDecimal.class, o -> o.setFormat(JsonFormat.Value.forShape(JsonFormat.Shape.STRING)))
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    public byte[] encode(OrderEvent event) {
        return json.writeValueAsBytes(event);
    }

    /** Decodes one event; a record that is not one (bad JSON, a missing or wrong field) is a {@link MalformedOrderEventException}. */
    public OrderEvent decode(byte[] value) {
        return read(value, OrderEvent.class);
    }

    /** A batch, as the relay hands it from region to region. */
    public byte[] encodeAll(List<OrderEvent> events) {
        return json.writeValueAsBytes(events);
    }

    /** A batch of events encoded one by one (as published): the bytes {@link #encodeAll} gives for them decoded. */
    public byte[] joinEncoded(List<byte[]> encoded) {
        int length = 1 + encoded.size();
        for (byte[] event : encoded) {
            length += event.length;
        }
        byte[] batch = new byte[Math.max(2, length)];
        batch[0] = '[';
        int at = 1;
        for (byte[] event : encoded) {
            if (at > 1) {
                batch[at++] = ',';
            }
            System.arraycopy(event, 0, batch, at, event.length);
            at += event.length;
        }
        batch[at] = ']';
        return batch;
    }

    public List<OrderEvent> decodeAll(byte[] value) {
        return List.of(read(value, OrderEvent[].class));
    }

    private <T> T read(byte[] value, Class<T> type) {
        if (value == null) {
            throw new MalformedOrderEventException("empty record");
        }
        try {
            return json.readValue(value, type);
        } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
            String excerpt = new String(value, 0, Math.min(value.length, 200), StandardCharsets.UTF_8);
            throw new MalformedOrderEventException(rootMessage(e) + " in " + excerpt, e);
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
