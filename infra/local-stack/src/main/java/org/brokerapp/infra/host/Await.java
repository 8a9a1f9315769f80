package org.brokerapp.infra.host;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.ThrowingRunnable;

/**
 * The one way tests wait for something that becomes true later (replication, a consumer taking its
 * partitions, an order being filled): polls with Awaitility until the condition holds or the
 * timeout passes, and then fails with {@code what} in the message. No test sleeps and re-checks by
 * hand. Awaitility is an optional dependency of this module: a module whose tests use this class
 * declares {@code org.awaitility:awaitility} in test scope.
 */
public final class Await {

    /** How often a condition is checked: often enough for sub-second events, rarely enough for a 2-core machine. */
    static final Duration POLL = Duration.ofMillis(20);

    private Await() {
    }

    /** Waits until {@code condition} is true. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        await(what, timeout).until(condition::getAsBoolean);
    }

    /**
     * Waits until {@code probe} answers a value that satisfies {@code accepted}, and returns that
     * value; on timeout the failure shows the last value answered.
     */
    public static <T> T until(String what, Duration timeout, Callable<T> probe, Predicate<? super T> accepted) {
        AtomicReference<T> last = new AtomicReference<>();
        try {
            return await(what, timeout).until(() -> {
                T value = probe.call();
                last.set(value);
                return value;
            }, accepted::test);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(what + ": not within " + timeout.toMillis() + " ms; last answer: " + last.get(), e);
        }
    }

    /** Waits until {@code probe} answers a value (not null), and returns it. */
    public static <T> T value(String what, Duration timeout, Callable<T> probe) {
        return until(what, timeout, probe, v -> v != null);
    }

    /** Waits until {@code assertion} passes; on timeout the failure names the last assertion error. */
    public static void untilAsserted(String what, Duration timeout, ThrowingRunnable assertion) {
        await(what, timeout).untilAsserted(assertion);
    }

    /**
     * A wait under the house rules, for the rare case the helpers above do not fit: first check at
     * once, then every {@link #POLL}, in the test's own thread (clients such as a Kafka consumer are
     * not to be shared between threads; a check that blocks delays the timeout, it never overlaps).
     */
    public static ConditionFactory await(String what, Duration timeout) {
        return Awaitility.await(what).atMost(timeout).pollDelay(Duration.ZERO).pollInterval(POLL).pollInSameThread();
    }
}
