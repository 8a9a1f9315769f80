package org.brokerapp.broker.events;

import java.util.List;

import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** JSON (UTF-8) of {@link OrderEvent}, the value format of {@code order-events}. */
@Component
public class OrderEventCodec {

    private final JsonMapper json;

    public OrderEventCodec(JsonMapper json) {
        this.json = json;
    }

    public byte[] encode(OrderEvent event) {
        return json.writeValueAsBytes(event);
    }

    public OrderEvent decode(byte[] value) {
        return json.readValue(value, OrderEvent.class);
    }

    /** A batch, as the relay hands it from region to region. */
    public byte[] encodeAll(List<OrderEvent> events) {
        return json.writeValueAsBytes(events);
    }

    public List<OrderEvent> decodeAll(byte[] value) {
        return List.of(json.readValue(value, OrderEvent[].class));
    }
}
