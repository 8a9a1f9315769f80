package org.brokerapp.broker.stream;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventObserver;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.json.JsonMapper;

/**
 * The customers' pushed order updates on this broker, from the order events it publishes and the
 * ones the relay brings it: at the customer's home that is every event of theirs (their owner
 * places, and every fill, cancel and expiry is relayed to it); elsewhere, what that region
 * published or decided. Each update is numbered in the order this broker saw it, kept per customer
 * for resuming, and handed to the customer's open streams.
 *
 * <p>Only customers who hold a stream, or held one within {@code keep-for}, have their updates kept:
 * for everyone else an event costs one map lookup on the thread that observed it. For the others,
 * that thread only queues the event; one thread numbers, serialises and keeps it, and a small pool
 * writes to the streams.
 */
@Component
public class OrderUpdates implements OrderEventObserver, DisposableBean {

    private static final int SENDERS = 4;

    private final StreamProperties settings;
    private final JsonMapper json;
    /** This run's name in every id, so a position from before a restart is known for what it is. */
    private final String epoch = Long.toString(System.currentTimeMillis(), 36);
    private final Map<String, CustomerFeed> feeds = new ConcurrentHashMap<>();
    private final Set<StreamClient> open = ConcurrentHashMap.newKeySet();
    private final ExecutorService keeper = Executors.newSingleThreadExecutor(daemons("order-updates"));
    private final ExecutorService senders;
    private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(daemons("order-stream-heartbeat"));
    /** Numbered by the keeper's one thread; read when a customer's feed starts. */
    private final AtomicLong sequence = new AtomicLong();

    public OrderUpdates(StreamProperties settings, JsonMapper json, MeterRegistry meters) {
        this.settings = settings;
        this.json = json;
        this.senders = new ThreadPoolExecutor(SENDERS, SENDERS, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), daemons("order-stream"));
        Gauge.builder("broker.stream.open", open, Set::size).description("customers' open order-update streams on this broker").register(meters);
        long every = settings.heartbeat().toMillis();
        heartbeats.scheduleAtFixedRate(this::beat, every, every, TimeUnit.MILLISECONDS);
    }

    /** A heartbeat to every open stream; the updates of customers without a stream for {@code keep-for} forgotten. */
    private void beat() {
        open.forEach(client -> client.offer(StreamClient.HEARTBEAT));
        long now = System.nanoTime();
        feeds.keySet().forEach(customer -> feeds.computeIfPresent(customer, (c, feed) -> feed.idleFor(settings.keepFor().toNanos(), now) ? null : feed));
    }

    @Override
    public void observe(OrderEvent event) {
        CustomerFeed feed = feeds.get(event.customerId());
        if (feed != null && event.type() != OrderEvent.Type.CANCEL_REQUESTED) {
            keeper.execute(() -> keep(feed, event));
        }
    }

    private void keep(CustomerFeed feed, OrderEvent event) {
        long next = sequence.incrementAndGet();
        String id = new StreamPosition(epoch, next).id();
        feed.append(new Update(next, id, event.eventId(), event.type().name(), json.writeValueAsString(OrderUpdate.of(event))));
    }

    /**
     * A new stream of the customer's updates: after {@code lastEventId} when the client resumes, from
     * now otherwise. 400 for an id this broker never sent in that form; past the streams allowed, the customer's oldest ends.
     */
    public SseEmitter subscribe(String customerId, String lastEventId) {
        Optional<StreamPosition> after = StreamPosition.parse(lastEventId);
        SseEmitter emitter = new SseEmitter(settings.lifetime().toMillis());
        StreamClient client = new StreamClient(customerId, emitter, senders, settings.backlog());
        client.offer(StreamClient.OPENED);
        Update resync = new Update(-1, "", "", "resync", json.writeValueAsString(Map.of("reason",
                "updates after " + after.map(StreamPosition::id).orElse("") + " are no longer kept here: read your orders again")));
        // subscribed within the map's compute, so the sweep of idle feeds cannot drop this feed in between; a customer
        // without a stream lately gets a new feed: whatever came before is not kept here
        CustomerFeed feed = feeds.compute(customerId, (c, kept) -> {
            CustomerFeed f = kept != null ? kept : new CustomerFeed(settings.kept(), sequence.get());
            f.subscribe(client, after, epoch, settings.streams(), resync);
            return f;
        });
        open.add(client);
        Runnable gone = () -> {
            open.remove(client);
            feed.remove(client);
            client.close();
        };
        emitter.onCompletion(gone);
        emitter.onTimeout(gone);
        emitter.onError(error -> gone.run());
        return emitter;
    }

    @Override
    public void destroy() {
        heartbeats.shutdownNow();
        keeper.shutdownNow();
        open.forEach(StreamClient::close);
        senders.shutdownNow();
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger n = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
