package org.brokerapp.broker.ticker;

import static org.assertj.core.api.Assertions.assertThatCode;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/** The dead-letter topic's admin client starts: with a 5 s API timeout and the default 30 s request timeout it did not. */
class TickRefusalsTests {

    @Test
    void theAdminClientThatCreatesTheDeadLetterTopicAcceptsItsConfiguration() {
        // creating a client connects to nothing; 127.9.0.1 is instance 9's range, which no stack uses
        assertThatCode(() -> {
            try (Admin admin = Admin.create(TickRefusals.adminConfig(Map.of("bootstrap.servers", "127.9.0.1:9")))) {
                admin.close(Duration.ZERO);
            }
        }).doesNotThrowAnyException();
    }
}
