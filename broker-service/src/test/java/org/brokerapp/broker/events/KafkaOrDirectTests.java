package org.brokerapp.broker.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * An event goes out through Kafka; when Kafka has not acknowledged it in time or refused it, the
 * direct path carries it too, and the event counts as delivered once either has it.
 */
class KafkaOrDirectTests {

    private static final Duration WAIT = Duration.ofMillis(100);

    private final AtomicInteger directCalls = new AtomicInteger();
    private final AtomicInteger wentDirect = new AtomicInteger();
    private final CompletableFuture<Void> direct = new CompletableFuture<>();

    private CompletableFuture<Void> deliver(CompletableFuture<Void> kafka, Duration wait) {
        return KafkaOrDirect.deliver(kafka, () -> {
            directCalls.incrementAndGet();
            return direct;
        }, wait, wentDirect::incrementAndGet);
    }

    @Test
    void kafkaInTimeIsAllItTakes() {
        CompletableFuture<Void> delivered = deliver(CompletableFuture.completedFuture(null), WAIT);

        assertThat(delivered).isCompleted();
        sleep(3 * WAIT.toMillis());
        assertThat(directCalls).hasValue(0);
    }

    @Test
    void kafkaSilentPastTheWaitSendsTheEventDirectlyAndItCountsOnceTaken() {
        CompletableFuture<Void> delivered = deliver(new CompletableFuture<>(), WAIT);

        await().atMost(Duration.ofSeconds(5)).until(() -> directCalls.get() == 1);
        assertThat(delivered).isNotDone();
        direct.complete(null);

        assertThat(delivered).isCompleted();
        assertThat(wentDirect).hasValue(1);
    }

    @Test
    void kafkaRefusingTheEventSendsItDirectlyAtOnce() {
        CompletableFuture<Void> delivered = deliver(CompletableFuture.failedFuture(new IllegalStateException("Kafka down")), Duration.ofHours(1));

        assertThat(directCalls).hasValue(1);
        direct.complete(null);
        assertThat(delivered).isCompleted();
    }

    @Test
    void bothPathsFailingFailsTheEventWithKafkasError() {
        CompletableFuture<Void> kafka = new CompletableFuture<>();
        CompletableFuture<Void> delivered = deliver(kafka, WAIT);
        await().atMost(Duration.ofSeconds(5)).until(() -> directCalls.get() == 1);

        direct.completeExceptionally(new IllegalStateException("peer unreachable"));
        assertThat(delivered).as("the answer is Kafka's now, which may still come").isNotDone();
        kafka.completeExceptionally(new IllegalStateException("delivery timed out"));

        assertThat(delivered).isCompletedExceptionally();
        assertThat(wentDirect).hasValue(0);
    }

    @Test
    void kafkaLateAfterAFailedDirectDeliveryStillDelivers() {
        CompletableFuture<Void> kafka = new CompletableFuture<>();
        CompletableFuture<Void> delivered = deliver(kafka, WAIT);
        await().atMost(Duration.ofSeconds(5)).until(() -> directCalls.get() == 1);
        direct.completeExceptionally(new IllegalStateException("peer unreachable"));

        kafka.complete(null);

        assertThat(delivered).isCompleted();
        assertThat(directCalls).as("one direct attempt, not one per trigger").hasValue(1);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
