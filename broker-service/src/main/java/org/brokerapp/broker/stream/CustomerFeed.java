package org.brokerapp.broker.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;


/**
 * One customer's latest updates on this broker and their open streams. An update is kept (up to
 * {@code kept}) so a stream cut off can resume after its last one; appending and subscribing hold
 * the same monitor, so a stream gets what was kept after its position and then every new update,
 * none twice and none missed.
 */
final class CustomerFeed {

    private final int kept;
    private final Deque<Update> latest = new ArrayDeque<>();
    private final Set<String> latestEvents = new HashSet<>();
    private final List<StreamClient> clients = new ArrayList<>();
    /** Every update of this customer at or below this sequence is forgotten (or was never kept here). */
    private long forgottenUpTo;
    /** When the last stream closed ({@code System.nanoTime}); meaningful only while there is none. */
    private long idleSince = System.nanoTime();

    CustomerFeed(int kept, long forgottenUpTo) {
        this.kept = kept;
        this.forgottenUpTo = forgottenUpTo;
    }

    /** Keeps the update and offers it to every open stream; false if the same event was here already. */
    synchronized boolean append(Update update) {
        if (!latestEvents.add(update.eventId())) {
            return false;
        }
        latest.addLast(update);
        if (latest.size() > kept) {
            Update forgotten = latest.removeFirst();
            latestEvents.remove(forgotten.eventId());
            forgottenUpTo = forgotten.sequence();
        }
        clients.removeIf(StreamClient::isClosed);
        clients.forEach(client -> client.offer(update));
        return true;
    }

    /**
     * Opens a stream: from {@code after} (what was kept since), or from now when absent. When updates
     * after that position may be lost (forgotten here, or the position is from another run) the
     * stream starts with {@code resync}, telling the client to read its orders again, then sends
     * all that is kept; true then. Past {@code maxStreams} the customer's oldest stream is ended.
     */
    synchronized boolean subscribe(StreamClient client, Optional<StreamPosition> after, String epoch, int maxStreams, Update resync) {
        clients.removeIf(StreamClient::isClosed);
        // the oldest gives way, not the newest: a client that lost its connection reconnects at once,
        // before this broker has noticed the old stream is gone (at its next heartbeat)
        while (clients.size() >= maxStreams) {
            clients.remove(0).close();
        }
        boolean lost = after.isPresent() && (!after.get().epoch().equals(epoch) || after.get().sequence() < forgottenUpTo);
        if (lost) {
            client.offer(resync);
        }
        if (after.isPresent()) {
            long from = lost ? Long.MIN_VALUE : after.get().sequence();
            latest.stream().filter(u -> u.sequence() > from).forEach(client::offer);
        }
        clients.add(client);
        return lost;
    }

    synchronized void remove(StreamClient client) {
        clients.remove(client);
        if (clients.isEmpty()) {
            idleSince = System.nanoTime();
        }
    }

    synchronized List<StreamClient> clients() {
        return List.copyOf(clients);
    }

    /** True when no stream has been open for {@code nanos}: its updates need not be kept any longer. */
    synchronized boolean idleFor(long nanos, long nowNanos) {
        if (clients.removeIf(StreamClient::isClosed) && clients.isEmpty()) {
            idleSince = nowNanos;
        }
        return clients.isEmpty() && nowNanos - idleSince >= nanos;
    }
}
