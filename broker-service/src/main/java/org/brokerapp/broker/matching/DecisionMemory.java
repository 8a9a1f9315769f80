package org.brokerapp.broker.matching;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.brokerapp.broker.book.RestingOrder;
import org.brokerapp.broker.core.OrderStatus;

/**
 * What the matcher remembers of its own decisions, for {@code broker.matching.decision-memory}, so an
 * order arriving again (its owner rests an order it placed here directly, and the relay brings it
 * too) is not indexed again after its fill. The memory is a shortcut, never the guard: an order it
 * cannot vouch for ({@link #vouchesFor}) is marked, and the writer checks the ledger, the order's
 * durable state, before its first decision. That is every order taken over from open_orders (its
 * previous holder may have decided it), and every order delivered again from before the memory's
 * window or from before this instance took its symbol, however long the outage that delayed it and
 * whether or not this broker restarted meanwhile ({@code ResentEventsIT}).
 */
final class DecisionMemory {

    /** A decision taken here, and when. */
    private record Decided(OrderStatus status, long atNanos) {
    }

    /** Written by the matcher's thread and by the callbacks of decisions' writes. */
    private final Map<UUID, Decided> decided = new ConcurrentHashMap<>();
    /** When this instance took each symbol it holds (the matcher's thread only): what it remembers starts there. */
    private final Map<String, Instant> ownedSince = new HashMap<>();
    private final Duration window;
    private final Duration maxClockSkew;
    private long lastForget = System.nanoTime();

    DecisionMemory(Duration window, Duration maxClockSkew) {
        this.window = window;
        this.maxClockSkew = maxClockSkew;
    }

    void took(Collection<String> symbols) {
        Instant now = Instant.now();
        symbols.forEach(symbol -> ownedSince.put(symbol, now));
    }

    void gaveUp(Collection<String> symbols) {
        symbols.forEach(ownedSince::remove);
    }

    /**
     * Whether a decision on the order, had there been one, would still be remembered here: it was
     * placed (by its placing broker's clock, give or take {@code max-clock-skew}) after this instance
     * took its symbol and within the memory's window. Any decision on it came after its placement,
     * so was taken here and is not forgotten yet.
     */
    boolean vouchesFor(RestingOrder order) {
        Instant since = ownedSince.get(order.symbol());
        if (since == null) {
            return false; // not taken on yet by the matcher's thread: nothing to vouch with
        }
        Instant windowStart = Instant.now().minus(window);
        Instant horizon = (since.isBefore(windowStart) ? windowStart : since).plus(maxClockSkew);
        return order.placedAt().isAfter(horizon);
    }

    /** The status this instance decided the order to, if it did and remembers. */
    Optional<OrderStatus> decisionOn(UUID orderId) {
        return Optional.ofNullable(decided.get(orderId)).map(Decided::status);
    }

    void remember(UUID orderId, OrderStatus status) {
        decided.put(orderId, new Decided(status, System.nanoTime()));
    }

    /** A decision that did not stand (nothing written, or the order was closed before): the order may be indexed again. */
    void forget(UUID orderId) {
        decided.remove(orderId);
    }

    /** Lets decisions older than the window go, at most every 10 s. */
    void forgetOld() {
        long now = System.nanoTime();
        if (now - lastForget < Math.min(TimeUnit.SECONDS.toNanos(10), window.toNanos())) {
            return;
        }
        lastForget = now;
        long cutoff = now - window.toNanos();
        decided.values().removeIf(d -> d.atNanos() - cutoff < 0);
    }
}
