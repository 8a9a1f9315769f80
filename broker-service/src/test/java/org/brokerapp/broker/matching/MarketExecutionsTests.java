package org.brokerapp.broker.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.junit.jupiter.api.Test;

/** One decision per MARKET order: a retry after a write of unknown outcome gets the first fill, at its price. */
class MarketExecutionsTests {

    private final AtomicLong nanos = new AtomicLong();
    private final MarketExecutions executions = new MarketExecutions(nanos::get);

    private static Order open(int n) {
        return new Order(UUID.nameUUIDFromBytes(("m" + n).getBytes()), "alice", "c-" + n, "KO", "NYSE", Side.BUY, OrderType.MARKET, 10, null, null,
                BigDecimal.ZERO, OrderStatus.OPEN, "us-east-1", Instant.parse("2026-11-25T01:00:00Z"), null, null, null, null);
    }

    @Test
    void aRetryAfterAnUnwrittenFillGetsThatFillNotOneAtTheNewPrice() {
        Order order = open(1);

        MarketExecutions.Execution first = executions.decide(order, new BigDecimal("33.0378"), "us-east-1");
        // its write timed out: nothing marked written; the retry comes with the price of its own moment
        MarketExecutions.Execution retry = executions.decide(order, new BigDecimal("33.0260"), "us-east-1");

        assertThat(first.written()).isFalse();
        assertThat(retry).isSameAs(first);
        assertThat(retry.filled().fillPrice()).isEqualByComparingTo("33.0378");
        assertThat(retry.filled().status()).isEqualTo(OrderStatus.FILLED);
        assertThat(retry.filled().filledBy()).isEqualTo("us-east-1");
        assertThat(executions.of(order.orderId())).contains(first);
    }

    @Test
    void aWrittenFillIsAnsweredAsItIs() {
        Order order = open(2);
        Order filled = executions.decide(order, new BigDecimal("4.8468"), "ap-southeast-2").filled();

        executions.written(filled);

        MarketExecutions.Execution again = executions.decide(order, new BigDecimal("4.8525"), "ap-southeast-2");
        assertThat(again.written()).isTrue();
        assertThat(again.filled()).isEqualTo(filled);
        assertThat(executions.of(open(3).orderId())).isEmpty();
    }

    @Test
    void oldExecutionsAreForgottenOnlyPastTheMemoryAndOnlyWhenMany() {
        Order kept = open(0);
        executions.decide(kept, BigDecimal.ONE, "us-east-1");
        for (int n = 1; n <= 1_000; n++) {
            executions.decide(open(10 + n), BigDecimal.ONE, "us-east-1");
        }
        assertThat(executions.of(kept.orderId())).isPresent();

        nanos.addAndGet(MarketExecutions.MEMORY.toNanos() + 1);
        Order fresh = open(5_000);
        executions.decide(fresh, BigDecimal.ONE, "us-east-1");

        assertThat(executions.of(kept.orderId())).isEmpty();
        assertThat(executions.of(fresh.orderId())).isPresent();
    }
}
