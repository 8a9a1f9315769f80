package org.brokerapp.broker.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.junit.jupiter.api.Test;

class EventRoutingTests {

    private static final Order OPEN = new Order(OrderEventCodecTests.ORDER, "alice", "my-1", "BHP", "ASX", Side.BUY, OrderType.LIMIT, 10,
            new BigDecimal("41.00"), null, new BigDecimal("410.00"), OrderStatus.OPEN, "us-east-1", OrderEventCodecTests.PLACED, null, null, null,
            null);

    @Test
    void ordersToRestAndCancelRequestsAreForTheMatcherEverythingElseForTheAccount() {
        assertThat(OrderEvent.placed(OPEN, OrderEventCodecTests.PLACED, "us-east-1").forMatcher()).isTrue();
        assertThat(OrderEvent.cancelRequested(OPEN, "us-east-1").forMatcher()).isTrue();
        assertThat(OrderEvent.filled(OrderEventCodecTests.filledOrder(), null, null, OrderEventCodecTests.PLACED, "us-east-1").forMatcher()).isFalse();
        Order market = new Order(OPEN.orderId(), "alice", "m-1", "BHP", "ASX", Side.BUY, OrderType.MARKET, 10, null, null, BigDecimal.ZERO,
                OrderStatus.FILLED, "us-east-1", OrderEventCodecTests.PLACED, new BigDecimal("41.00"), OrderEventCodecTests.PLACED, "ap-southeast-2",
                OrderEventCodecTests.PLACED);
        assertThat(OrderEvent.placed(market, OrderEventCodecTests.PLACED, "us-east-1").forMatcher()).as("a MARKET order is placed filled").isFalse();
    }

    @Test
    void aRecordsHeadersAndKeyCarryItsRoutingWithoutItsValue() {
        OrderEvent placed = OrderEvent.placed(OPEN, OrderEventCodecTests.PLACED, "us-east-1");
        EventRouting routing = EventRouting.of(placed);

        Optional<EventRouting> read = EventRouting.of(record(placed.key(), routing.headers(), "not read".getBytes(StandardCharsets.UTF_8)));

        assertThat(read).contains(new EventRouting(true, "BHP", "ASX", "alice"));
        OrderEvent filled = OrderEvent.filled(OrderEventCodecTests.filledOrder(), null, null, OrderEventCodecTests.PLACED, "us-east-1");
        assertThat(EventRouting.of(record("alice", EventRouting.of(filled).headers(), new byte[0])))
                .contains(new EventRouting(false, "IBM", "NYSE", "alice"));
    }

    @Test
    void aRecordWithoutRoutingHeadersHasNoRouting() {
        OrderEvent placed = OrderEvent.placed(OPEN, OrderEventCodecTests.PLACED, "us-east-1");
        Headers unknownDestination = new RecordHeaders().add(EventRouting.FOR, "elsewhere".getBytes(StandardCharsets.UTF_8))
                .add(EventRouting.SYMBOL, "BHP".getBytes(StandardCharsets.UTF_8));

        assertThat(EventRouting.of(record("alice", new RecordHeaders(), new OrderEventCodec().encode(placed)))).isEmpty();
        assertThat(EventRouting.of(record("alice", unknownDestination, new byte[0]))).isEmpty();
        assertThat(EventRouting.of(record(null, EventRouting.of(placed).headers(), new byte[0]))).as("no key, no customer").isEmpty();
    }

    private static ConsumerRecord<String, byte[]> record(String key, Headers headers, byte[] value) {
        return new ConsumerRecord<>(EventTopics.ORDER_EVENTS, 0, 42L, 0L, TimestampType.CREATE_TIME, -1, value.length, key, value, headers,
                Optional.empty());
    }
}
