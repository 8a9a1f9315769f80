package org.brokerapp.broker.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.junit.jupiter.api.Test;

class OrderEventCodecTests {

    static final UUID ORDER = UUID.fromString("0b6c7a2e-52d5-4a43-9a57-6b0a8e0a1f11");
    static final Instant PLACED = Instant.parse("2026-11-22T22:30:01.123Z");

    private final OrderEventCodec codec = new OrderEventCodec();

    static Order filledOrder() {
        return new Order(ORDER, "alice", "my-1", "IBM", "NYSE", Side.BUY, OrderType.LIMIT, 10, new BigDecimal("295.10"), null,
                new BigDecimal("2951.00"), OrderStatus.FILLED, "ap-southeast-2", PLACED, new BigDecimal("295.00"),
                PLACED.plusSeconds(5), "us-east-1", PLACED.plusSeconds(5));
    }

    @Test
    void aFillIsWrittenInTheAgreedShapeWithEveryFieldAndExactDecimals() {
        OrderEvent event = OrderEvent.filled(filledOrder(), PLACED.plusMillis(4_990), PLACED.plusMillis(4_995), PLACED.plusMillis(5_002), "us-east-1");

        String json = new String(codec.encode(event), StandardCharsets.UTF_8);

        assertThat(json).isEqualTo("{\"eventId\":\"0b6c7a2e-52d5-4a43-9a57-6b0a8e0a1f11/FILLED\",\"type\":\"FILLED\","
                + "\"orderId\":\"0b6c7a2e-52d5-4a43-9a57-6b0a8e0a1f11\",\"customerId\":\"alice\",\"clientOrderId\":\"my-1\","
                + "\"symbol\":\"IBM\",\"exchange\":\"NYSE\",\"side\":\"BUY\",\"orderType\":\"LIMIT\",\"quantity\":10,"
                + "\"limitPrice\":\"295.10\",\"stopPrice\":null,\"reservedCash\":\"2951.00\",\"placedRegion\":\"ap-southeast-2\","
                + "\"placedAt\":\"2026-11-22T22:30:01.123Z\",\"fillPrice\":\"295.00\",\"filledAt\":\"2026-11-22T22:30:06.123Z\","
                + "\"filledBy\":\"us-east-1\",\"closedAt\":\"2026-11-22T22:30:06.123Z\",\"tickTime\":\"2026-11-22T22:30:06.113Z\","
                + "\"receivedAt\":\"2026-11-22T22:30:06.118Z\",\"durableAt\":\"2026-11-22T22:30:06.125Z\",\"region\":\"us-east-1\","
                + "\"timeInForce\":\"GTC\",\"expiresAt\":null}");
        assertThat(codec.decode(codec.encode(event))).isEqualTo(event);
        assertThat(event.notional()).isEqualByComparingTo("2950.00");
    }

    @Test
    void aPlacementHasNoFillFieldsAndKeepsTheDecimalScale() {
        Order open = new Order(ORDER, "bob", "b-7", "BHP", "ASX", Side.SELL, OrderType.STOP, 3, null, new BigDecimal("41.500"),
                BigDecimal.ZERO, OrderStatus.OPEN, "ap-southeast-2", PLACED, null, null, null, null);
        OrderEvent event = OrderEvent.placed(open, PLACED.plusMillis(3), "ap-southeast-2");

        OrderEvent back = codec.decode(codec.encode(event));

        assertThat(back).isEqualTo(event);
        assertThat(back.stopPrice().toPlainString()).isEqualTo("41.500");
        assertThat(back.eventId()).endsWith("/PLACED");
        assertThat(back.key()).isEqualTo("bob");
    }

    @Test
    void eventsEncodedOneByOneJoinIntoTheBatchTheirListEncodesTo() {
        OrderEvent filled = OrderEvent.filled(filledOrder(), null, null, PLACED.plusSeconds(6), "us-east-1");
        OrderEvent cancelled = OrderEvent.cancelled(filledOrder(), PLACED.plusSeconds(7), "us-east-1");

        byte[] joined = codec.joinEncoded(List.of(codec.encode(filled), codec.encode(cancelled)));

        assertThat(joined).isEqualTo(codec.encodeAll(List.of(filled, cancelled)));
        assertThat(codec.decodeAll(joined)).containsExactly(filled, cancelled);
        assertThat(codec.joinEncoded(List.of(codec.encode(filled)))).isEqualTo(codec.encodeAll(List.of(filled)));
        assertThat(codec.joinEncoded(List.of())).isEqualTo(codec.encodeAll(List.of()));
    }

    @Test
    void recordsThatAreNotEventsAreRefusedWithTheReason() {
        OrderEvent event = OrderEvent.filled(filledOrder(), null, null, PLACED.plusSeconds(6), "us-east-1");
        String good = new String(codec.encode(event), StandardCharsets.UTF_8);

        assertThatThrownBy(() -> codec.decode("not json".getBytes(StandardCharsets.UTF_8))).isInstanceOf(MalformedOrderEventException.class);
        assertThatThrownBy(() -> codec.decode(good.replace("/FILLED\"", "/PLACED\"").getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedOrderEventException.class).hasMessageContaining("eventId must be");
        assertThatThrownBy(() -> codec.decode(good.replace("\"quantity\":10", "\"quantity\":null").getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedOrderEventException.class);
        assertThatThrownBy(() -> codec.decode(good.replace("\"fillPrice\":\"295.00\"", "\"fillPrice\":null").getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedOrderEventException.class).hasMessageContaining("FILLED event needs");
        assertThatThrownBy(() -> codec.decode(null)).isInstanceOf(MalformedOrderEventException.class);
    }
}
