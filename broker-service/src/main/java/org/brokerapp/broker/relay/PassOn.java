package org.brokerapp.broker.relay;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventCodec;
import org.brokerapp.broker.peer.PeerLinks;
import org.brokerapp.broker.system.BrokerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Hands events to the instance of this region that acts on them (the holder of a symbol, the
 * owner of an account), marked passed on: that instance takes them or asks for them again, but
 * never passes them further.
 */
@Component
class PassOn {

    private static final Logger log = LoggerFactory.getLogger(PassOn.class);
    static final String PATH = "/internal/events";

    private final PeerLinks links;
    private final OrderEventCodec codec;
    private final String region;

    PassOn(PeerLinks links, OrderEventCodec codec, BrokerProperties properties) {
        this.links = links;
        this.codec = codec;
        this.region = properties.region();
    }

    /** True once {@code instance} took every one of {@code events}. */
    boolean to(String instance, List<OrderEvent> events, boolean replayed) {
        try {
            return links.post(region, URI.create(instance), PATH + "?passedOn=true&replayed=" + replayed, codec.encodeAll(events), Duration.ofSeconds(10),
                    PeerLinks.MANY_CUSTOMERS).status() == 200;
        } catch (IOException | RuntimeException e) {
            log.debug("instance {} did not take {} events: {}", instance, events.size(), e.toString());
            return false;
        }
    }
}
