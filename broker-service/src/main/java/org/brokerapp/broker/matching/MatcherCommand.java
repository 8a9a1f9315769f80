package org.brokerapp.broker.matching;

import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import org.brokerapp.broker.book.RestingOrder;
import org.brokerapp.ticker.Tick;

/** What the matcher's thread applies, one at a time and in arrival order. */
sealed interface MatcherCommand {

    record TickArrived(Tick tick, long receivedNanos) implements MatcherCommand {
    }

    record AddOrder(RestingOrder order, boolean takenOver) implements MatcherCommand {
    }

    record Cancel(String symbol, String customerId, UUID orderId, CompletableFuture<Outcome> answer) implements MatcherCommand {
    }

    /** Expire the resting orders whose time has come (DAY, GTD). */
    record ExpireDue() implements MatcherCommand {
    }

    record Own(Collection<String> symbols, List<RestingOrder> orders) implements MatcherCommand {
    }

    record Disown(Collection<String> symbols, CountDownLatch done) implements MatcherCommand {
    }
}
