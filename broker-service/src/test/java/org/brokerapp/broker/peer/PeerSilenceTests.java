package org.brokerapp.broker.peer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.junit.jupiter.api.Test;

/** A peer's circuit opens after a few unanswered pings in a row, long before half its window has failed. */
class PeerSilenceTests {

    private final CircuitBreaker circuit = CircuitBreaker.of("us-east-1", CircuitBreakerConfig.custom()
            .slidingWindowSize(20).minimumNumberOfCalls(5).failureRateThreshold(50).build());
    private final PeerSilence silence = new PeerSilence(3);

    PeerSilenceTests() {
        for (int i = 0; i < 20; i++) {
            circuit.onSuccess(1, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void threeUnansweredPingsInARowOpenTheCircuit() {
        unanswered(2);
        assertThat(circuit.getState()).as("two: the breaker's own rule wants ten of twenty").isEqualTo(CircuitBreaker.State.CLOSED);

        unanswered(1);
        assertThat(circuit.getState()).isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    void anAnsweredPingStartsTheCountAgain() {
        unanswered(2);
        silence.answered("us-east-1");
        unanswered(2);

        assertThat(circuit.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void aHalfOpenCircuitIsLeftToItsProbes() {
        circuit.transitionToOpenState();
        circuit.transitionToHalfOpenState();

        unanswered(3);

        assertThat(circuit.getState()).as("the breaker decides on its half-open calls").isEqualTo(CircuitBreaker.State.HALF_OPEN);
    }

    @Test
    void eachRegionIsCountedApart() {
        CircuitBreaker other = CircuitBreaker.ofDefaults("eu-west-1");
        unanswered(2);
        silence.unanswered("eu-west-1", other);

        assertThat(circuit.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(other.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    private void unanswered(int pings) {
        for (int i = 0; i < pings; i++) {
            circuit.onError(1000, java.util.concurrent.TimeUnit.MILLISECONDS, new java.io.IOException("Connection refused"));
            silence.unanswered("us-east-1", circuit);
        }
    }
}
