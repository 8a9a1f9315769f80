package org.brokerapp.broker.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.junit.jupiter.api.Test;

/** What Kafka refused is kept, oldest first, up to a bound, and handed back whole to be sent again. */
class KafkaBacklogTests {

    private static OrderEvent placed(int n) {
        Order order = new Order(UUID.nameUUIDFromBytes(("o" + n).getBytes()), "alice", "c-" + n, "IBM", "NYSE", Side.BUY, OrderType.LIMIT, 1,
                new BigDecimal("1.00"), null, BigDecimal.ZERO, OrderStatus.OPEN, "us-east-1", Instant.parse("2026-11-24T03:00:00Z"), null, null, null, null);
        return OrderEvent.placed(order, Instant.parse("2026-11-24T03:00:00Z"), "us-east-1");
    }

    @Test
    void owedEventsComeBackOldestFirstAndOnlyOnce() {
        KafkaBacklog backlog = new KafkaBacklog(10);
        backlog.owe(placed(1));
        backlog.owe(placed(2));

        assertThat(backlog.takeAll()).containsExactly(placed(1), placed(2));
        assertThat(backlog.takeAll()).isEmpty();
        assertThat(backlog.size()).isZero();
    }

    @Test
    void aProbeTakesTheOldestOwedEventAlone() {
        KafkaBacklog backlog = new KafkaBacklog(10);
        assertThat(backlog.takeOldest()).isNull();
        backlog.owe(placed(1));
        backlog.owe(placed(2));

        assertThat(backlog.takeOldest()).isEqualTo(placed(1));
        assertThat(backlog.size()).isEqualTo(1);
        assertThat(backlog.takeAll()).containsExactly(placed(2));
    }

    @Test
    void beyondItsBoundAnEventIsNotKeptButCounted() {
        KafkaBacklog backlog = new KafkaBacklog(2);

        assertThat(backlog.owe(placed(1))).isTrue();
        assertThat(backlog.owe(placed(2))).isTrue();
        assertThat(backlog.owe(placed(3))).isFalse();

        assertThat(backlog.size()).isEqualTo(2);
        assertThat(backlog.dropped()).isEqualTo(1);
        assertThat(backlog.takeAll()).containsExactly(placed(1), placed(2));
    }
}
