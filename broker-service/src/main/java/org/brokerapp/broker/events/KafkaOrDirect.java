package org.brokerapp.broker.events;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * One event's way out: Kafka, or, if Kafka has not acknowledged it within a wait (or refused it),
 * the direct path too. Delivered once either path has it; failed only once both have failed. An
 * event taken by both arrives twice, which every consumer tolerates (the matcher indexes an order
 * once, an account applies a fill once).
 */
final class KafkaOrDirect {

    private KafkaOrDirect() {
    }

    /**
     * @param kafka      the send to Kafka, already under way
     * @param direct     starts the direct delivery (called at most once)
     * @param wait       how long Kafka has before the direct path starts as well
     * @param wentDirect told when the direct path delivered the event
     */
    static CompletableFuture<Void> deliver(CompletableFuture<Void> kafka, Supplier<CompletableFuture<Void>> direct, Duration wait, Runnable wentDirect) {
        CompletableFuture<Void> delivered = new CompletableFuture<>();
        AtomicBoolean started = new AtomicBoolean();
        Runnable goDirect = () -> {
            if (delivered.isDone() || !started.compareAndSet(false, true)) {
                return;
            }
            CompletableFuture<Void> around;
            try {
                around = direct.get();
            } catch (RuntimeException e) {
                around = CompletableFuture.failedFuture(e);
            }
            around.whenComplete((ok, failed) -> {
                if (failed == null) {
                    wentDirect.run();
                    delivered.complete(null);
                } else {
                    // the direct path failed: the answer is Kafka's, whenever it comes
                    kafka.whenComplete((sent, error) -> {
                        if (error == null) {
                            delivered.complete(null);
                        } else {
                            delivered.completeExceptionally(error);
                        }
                    });
                }
            });
        };
        kafka.whenComplete((sent, error) -> {
            if (error == null) {
                delivered.complete(null);
            } else {
                goDirect.run();
            }
        });
        if (!kafka.isDone()) {
            CompletableFuture.delayedExecutor(wait.toMillis(), TimeUnit.MILLISECONDS).execute(goDirect);
        }
        return delivered;
    }
}
