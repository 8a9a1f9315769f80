package org.brokerapp.broker.deciding;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import com.datastax.oss.driver.api.core.DriverException;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.peer.PeerLinks;
import org.brokerapp.broker.system.BrokerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

/**
 * Regional failover and failback. Adopting an exchange is for a region whose broker is gone: it
 * is refused while that broker still answers, and it needs every DC's Cassandra (the change must
 * reach the old owner's DC, or nothing would stop it from matching when it comes back). Releasing
 * hands an adopted exchange back to its home. Either way, the new owner starts matching only after
 * the handover period (see {@link ExchangeOwnership}).
 */
@Service
public class Failover {

    private static final Logger log = LoggerFactory.getLogger(Failover.class);

    /** An exchange's owner as the API shows it. */
    public record ExchangeView(String exchange, String home, String owner, long epoch, Instant matchingFrom, boolean matchedHere) {
    }

    private final ExchangeOwners owners;
    private final ExchangeOwnership ownership;
    private final PeerLinks peers;
    private final String region;
    private final BrokerProperties.Failover settings;
    private final Duration silenceThatMeansGone;

    public Failover(ExchangeOwners owners, ExchangeOwnership ownership, PeerLinks peers, BrokerProperties properties) {
        this.owners = owners;
        this.ownership = ownership;
        this.peers = peers;
        this.region = properties.region();
        this.settings = properties.failover();
        this.silenceThatMeansGone = properties.routing().pingInterval().multipliedBy(5);
        Duration needed = settings.lease().plus(settings.refreshInterval()).plusSeconds(5);
        if (settings.handover().compareTo(needed) < 0) {
            throw new IllegalStateException("broker.failover.handover must be at least lease + refresh-interval + 5 s (the Cassandra request timeout), "
                    + needed.toSeconds() + " s; it is " + settings.handover().toSeconds() + " s");
        }
    }

    public List<ExchangeView> exchanges() {
        ownership.refresh();
        return ownership.allExchanges().stream().map(this::view).toList();
    }

    /** This region takes over an exchange whose owner's broker is gone. */
    public ExchangeView adopt(String exchange) {
        ExchangeOwners.Owner current = current(exchange);
        if (current.region().equals(region)) {
            return view(exchange);
        }
        if (peers.isPeer(current.region()) && peers.silentFor(current.region()).compareTo(silenceThatMeansGone) < 0) {
            throw new OrderProblem.Conflict("Owner still alive", "the broker of " + current.region() + ", which matches " + exchange
                    + ", answered " + peers.silentFor(current.region()).toMillis() + " ms ago: failover is for a region whose broker is gone");
        }
        move(current, region, "adopted by " + region);
        log.warn("{} adopted {} from {}; matching here from {}", region, exchange, current.region(), view(exchange).matchingFrom());
        return view(exchange);
    }

    /** Hands an exchange this region adopted back to its home. */
    public ExchangeView release(String exchange) {
        ExchangeOwners.Owner current = current(exchange);
        String home = ownership.homeOf(exchange);
        if (!current.region().equals(region) || home.equals(region)) {
            throw new OrderProblem.Conflict("Not adopted here", exchange + " is matched by " + current.region() + " and homed in " + home
                    + ": only the region that adopted it can hand it back");
        }
        move(current, home, "released by " + region);
        log.warn("{} handed {} back to {}; matching there from {}", region, exchange, home, view(exchange).matchingFrom());
        return view(exchange);
    }

    /** The automatic policy: adopt the configured exchanges once their owner's broker has been silent for the grace period. */
    @Scheduled(fixedDelayString = "${broker.failover.refresh-interval:1s}")
    void adoptAbandoned() {
        for (String exchange : settings.autoAdopt()) {
            ExchangeOwners.Owner current = ownership.ownerOf(exchange);
            if (!current.region().equals(region) && peers.isPeer(current.region()) && peers.silentFor(current.region()).compareTo(settings.autoAdoptAfter()) >= 0) {
                try {
                    log.warn("{}'s broker silent for {} s: adopting {}", current.region(), peers.silentFor(current.region()).toSeconds(), exchange);
                    adopt(exchange);
                } catch (OrderProblem notNow) {
                    log.warn("automatic adoption of {} failed: {}", exchange, notNow.getMessage());
                }
            }
        }
    }

    private ExchangeOwners.Owner current(String exchange) {
        if (!ownership.allExchanges().contains(exchange)) {
            throw new OrderProblem.NotFound("no exchange " + exchange + "; known: " + ownership.allExchanges());
        }
        ownership.refresh();
        return ownership.ownerOf(exchange);
    }

    private void move(ExchangeOwners.Owner current, String to, String by) {
        boolean moved;
        try {
            moved = owners.move(current, to, Instant.now(), by);
        } catch (DriverException e) {
            throw new OrderProblem.RegionUnreachable(current.region(), Duration.ofSeconds(10), "the change could not be made in every DC ("
                    + e.getClass().getSimpleName() + "): " + current.exchange() + " stays with " + current.region()
                    + " (a region whose Cassandra is unreachable cannot be fenced, so it cannot be replaced)");
        }
        if (!moved) {
            throw new OrderProblem.Conflict("Owner changed", current.exchange() + " changed owner meanwhile; read it again and retry");
        }
        ownership.refresh();
    }

    private ExchangeView view(String exchange) {
        ExchangeOwners.Owner owner = ownership.ownerOf(exchange);
        return new ExchangeView(exchange, ownership.homeOf(exchange), owner.region(), owner.epoch(), ownership.effectiveFrom(owner),
                ownership.holds(exchange));
    }
}
