package org.brokerapp.broker.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** How long an order's write is waited for, and what its caller hears when it did not complete in time. */
public final class OrderWrites {

    private static final Duration WAIT = Duration.ofSeconds(6);

    private OrderWrites() {
    }

    /**
     * Waits for the order's write (or writes and event). One that did not complete in time has an
     * unknown outcome: refused (503) with the order's reservation kept, and a retry with the same
     * clientOrderId completes it.
     */
    public static void await(CompletableFuture<?> write, Order order) {
        try {
            write.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new OrderProblem.NotOwner(order.customerId(), "order " + order.orderId() + " was not written in time; its cash or shares stay "
                    + "reserved until it is: retry with the same clientOrderId, which never places twice");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
