package org.brokerapp.broker.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/** Against an address where nothing listens (port 1 on loopback): a Kafka that never answers. */
class OrderPathTopicsTests {

    @Test
    void aKafkaThatDoesNotAnswerIsAskedAgainUntilThePatienceIsSpentThenRefusedInOneLine() {
        long started = System.nanoTime();

        assertThatThrownBy(() -> OrderPathTopics.ensure(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1"), "127.0.0.1:1",
                List.of(new NewTopic("order-events", 1, (short) 1)), Duration.ofMillis(400), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageMatching("Kafka at 127\\.0\\.0\\.1:1 did not answer within 1 s \\(([2-9]|\\d\\d) attempts\\)");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(30));
    }
}
