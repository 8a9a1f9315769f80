package org.brokerapp.broker.relay;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.micrometer.core.instrument.MeterRegistry;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.events.DirectDelivery;
import org.brokerapp.broker.events.EventRouting;
import org.brokerapp.broker.events.EventTopics;
import org.brokerapp.broker.events.MalformedOrderEventException;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventCodec;
import org.brokerapp.broker.peer.PeerLinks;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.RegionsModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Carries this region's order events to the regions that act on them: an order placed here for a
 * symbol matched elsewhere, or a cancel request, to the region holding the symbol's exchange; a fill
 * or cancel decided here to the home region of the customer (this region included, through the same
 * path). One consumer group per destination ({@link RegionRelay}, one batch in flight per partition) reads the
 * region's {@code order-events} and commits only what the destination took (at most once per
 * {@code broker.events.relay-commit-interval}, not per event), so a cut region stalls
 * its own relay and nothing else, and nothing is lost when a relay or a destination restarts: the
 * events are delivered again and taken once ({@link EventIntake}). No table is polled: a record
 * reaches its destination one Kafka long poll plus one WAN crossing after it was published. A relay
 * reads only a record's {@link EventRouting} headers to know whether it is for its destination, and
 * hands another region's events on as they were published: each event is decoded once, where it is
 * taken.
 *
 * <p>It is also the publisher's way around Kafka ({@link DirectDelivery}): an event Kafka has not
 * acknowledged in time is handed over the same way, at once, by itself.
 */
@Component
public class EventRelay implements SmartLifecycle, DirectDelivery, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(EventRelay.class);
    private static final Duration HAND_OVER_TIMEOUT = Duration.ofSeconds(5);

    private final BrokerProperties properties;
    private final List<String> destinations;
    private final ExchangeOwnership exchanges;
    private final CustomerHomes homes;
    private final EventIntake intake;
    private final PeerLinks links;
    private final OrderEventCodec codec;
    private final MeterRegistry meters;
    private final Map<String, RegionRelay> relays = new ConcurrentHashMap<>();
    /** Hands events around Kafka to their destination, which may block (a WAN round trip, or passing them on to another instance). */
    private final ExecutorService directDelivery = Executors.newFixedThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "direct-delivery");
        thread.setDaemon(true);
        return thread;
    });

    public EventRelay(BrokerProperties properties, RegionsModel regions, ExchangeOwnership exchanges, CustomerHomes homes, EventIntake intake,
                      PeerLinks links, OrderEventCodec codec, MeterRegistry meters) {
        this.properties = properties;
        this.destinations = regions.names();
        this.exchanges = exchanges;
        this.homes = homes;
        this.intake = intake;
        this.links = links;
        this.codec = codec;
        this.meters = meters;
    }

    /** The region that acts on an event so routed: the one matching its symbol, or the customer's home; null when no region can act on it. */
    String destinationOf(EventRouting routing) {
        return routing.forMatcher() ? exchanges.matchingRegionOf(routing.symbol(), routing.exchange()).orElse(null)
                : homes.homeOf(routing.customerId()).orElse(null);
    }

    @Override
    public CompletableFuture<Void> deliver(OrderEvent event) {
        String destination = destinationOf(EventRouting.of(event));
        if (destination == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("no region can act on order event " + event.eventId()));
        }
        return CompletableFuture.runAsync(() -> {
            if (!handOver(destination, List.of(codec.encode(event)), false)) {
                throw new IllegalStateException(destination + " did not take order event " + event.eventId());
            }
        }, directDelivery);
    }

    /**
     * Hands a batch of encoded events to their destination region (this one: its intake) and waits;
     * true once every event was taken. Only this region's own events are decoded here; another
     * region's go as they were published, decoded once, there.
     */
    boolean handOver(String destination, List<byte[]> batch, boolean replayed) {
        if (destination.equals(properties.region())) {
            return intake.take(properties.region(), decodable(batch), replayed, false);
        }
        Optional<URI> peer = links.peer(destination);
        if (peer.isEmpty()) {
            log.warn("no route to {} (broker.routing.peers): {} events wait", destination, batch.size());
            return false;
        }
        int status = post(peer.get(), destination, codec.joinEncoded(batch), batch.size(), replayed);
        if (status == HttpStatus.BAD_REQUEST.value()) {
            // the destination takes a batch whole or not at all, and one of these is not an event: the others go without it
            List<OrderEvent> events = decodable(batch);
            status = events.isEmpty() ? HttpStatus.OK.value() : post(peer.get(), destination, codec.encodeAll(events), events.size(), replayed);
        }
        return status == HttpStatus.OK.value();
    }

    /** The destination's answer to a batch, or -1 when there was none. */
    private int post(URI peer, String destination, byte[] batch, int events, boolean replayed) {
        try {
            return links.post(destination, peer, EventIntake.PATH + "?replayed=" + replayed, batch, HAND_OVER_TIMEOUT, PeerLinks.MANY_CUSTOMERS).status();
        } catch (IOException | RuntimeException notTaken) {
            log.debug("{} did not take {} events: {}", destination, events, notTaken.toString());
            return -1;
        }
    }

    /** The batch's events; a record that is not one is logged and skipped (passed on, it would stall the relay for good). */
    private List<OrderEvent> decodable(List<byte[]> batch) {
        List<OrderEvent> events = new ArrayList<>(batch.size());
        for (byte[] encoded : batch) {
            try {
                events.add(codec.decode(encoded));
            } catch (MalformedOrderEventException e) {
                log.warn("skipping a record of {} that is not an order event: {}", EventTopics.ORDER_EVENTS, e.getMessage());
            }
        }
        return events;
    }

    @Override
    public void start() {
        for (String destination : destinations) {
            relays.computeIfAbsent(destination, d -> new RegionRelay(this, d, properties, codec, meters)).start();
        }
    }

    @Override
    public void stop() {
        relays.values().forEach(RegionRelay::stop);
    }

    @Override
    public void destroy() {
        directDelivery.shutdownNow();
    }

    @Override
    public boolean isRunning() {
        return relays.values().stream().anyMatch(RegionRelay::isRunning);
    }

    /** After the matcher and the account owners (which take what is relayed), before the web server. */
    @Override
    public int getPhase() {
        return 20;
    }

    /** The consumer group of the relay from {@code region} to {@code destination}. */
    public static String group(String region, String destination) {
        return "relay-" + region + "-to-" + destination;
    }

    /** Whether every relay's poll loop runs (readiness: a stopped relay strands orders placed here). */
    public boolean isRelaying() {
        return !relays.isEmpty() && relays.values().stream().allMatch(r -> r.isRunning() && r.polling());
    }
}
