package org.brokerapp.broker.deciding;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import jakarta.annotation.PreDestroy;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.RegionsModel;
import org.brokerapp.regions.SymbolUniverse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Which exchanges this region matches now. An exchange is held here while the latest read of
 * exchange_owners (at most {@code lease} old) names this region, and only from {@code handover}
 * after the change that named it: long enough for the previous owner to have read the change (or
 * lost its lease) and finished any fill it had started. Everything that decides for an exchange
 * (matching, fills, cancels, market orders) asks {@link #holds}.
 */
@Component
public class ExchangeOwnership {

    private static final Logger log = LoggerFactory.getLogger(ExchangeOwnership.class);

    private final ExchangeOwners owners;
    private final RegionsModel regions;
    private final SymbolUniverse symbols;
    private final String region;
    private final Duration lease;
    private final Duration handover;
    private final List<Consumer<Set<String>>> listeners = new CopyOnWriteArrayList<>();
    private volatile Map<String, ExchangeOwners.Owner> view = Map.of();
    private volatile Set<String> held = Set.of();
    private final ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "exchange-owners");
        t.setDaemon(true);
        return t;
    });
    private volatile long lastReadNanos = System.nanoTime() - Duration.ofDays(1).toNanos();

    public ExchangeOwnership(ExchangeOwners owners, RegionsModel regions, SymbolUniverse symbols, BrokerProperties properties) {
        this.owners = owners;
        this.regions = regions;
        this.symbols = symbols;
        this.region = properties.region();
        this.lease = properties.failover().lease();
        this.handover = properties.failover().handover();
        refresh();
        // a thread of its own: nothing else scheduled in the broker can delay the read that keeps the lease
        long interval = properties.failover().refreshInterval().toMillis();
        reader.scheduleWithFixedDelay(this::refresh, interval, interval, TimeUnit.MILLISECONDS);
    }

    /** Called with the new set of held exchanges whenever it changes (and once now). */
    public void onChange(Consumer<Set<String>> listener) {
        listeners.add(listener);
        listener.accept(held);
    }

    public boolean holds(String exchange) {
        return held.contains(exchange);
    }

    /** Whether this region matches the symbol now; false for a symbol that is listed nowhere. */
    public boolean holdsSymbol(String symbol) {
        return symbols.find(symbol).map(listing -> held.contains(listing.exchange())).orElse(false);
    }

    /** The region matching a symbol listed on {@code exchange}; empty when no exchange lists it so (nobody can match it). */
    public Optional<String> matchingRegionOf(String symbol, String exchange) {
        return symbols.find(symbol).filter(listing -> listing.exchange().equals(exchange)).map(listing -> ownerOf(exchange).region());
    }

    public Set<String> held() {
        return held;
    }

    /** The region that matches the exchange, as last read: its home unless it failed over. */
    public ExchangeOwners.Owner ownerOf(String exchange) {
        ExchangeOwners.Owner owner = view.get(exchange);
        return owner != null ? owner : new ExchangeOwners.Owner(exchange, homeOf(exchange), 0, Instant.EPOCH);
    }

    public List<String> allExchanges() {
        return regions.regions().stream().flatMap(r -> r.exchanges().stream()).toList();
    }

    public String homeOf(String exchange) {
        return regions.homeOf(exchange).orElseThrow().name();
    }

    /** When a region named owner may start matching: {@code handover} after the change. */
    public Instant effectiveFrom(ExchangeOwners.Owner owner) {
        return owner.epoch() == 0 ? Instant.EPOCH : owner.changedAt().plus(handover);
    }

    @PreDestroy
    void stop() {
        reader.shutdownNow();
    }

    public synchronized void refresh() {
        try {
            view = Map.copyOf(owners.read(allExchanges()));
            lastReadNanos = System.nanoTime();
        } catch (RuntimeException e) {
            log.warn("cannot read exchange owners: {}", e.getMessage());
        }
        boolean leaseValid = System.nanoTime() - lastReadNanos < lease.toNanos();
        Instant now = Instant.now();
        Set<String> nowHeld = !leaseValid ? Set.of() : allExchanges().stream()
                .map(this::ownerOf)
                .filter(o -> o.region().equals(region) && !now.isBefore(effectiveFrom(o)))
                .map(ExchangeOwners.Owner::exchange)
                .collect(Collectors.toUnmodifiableSet());
        if (!nowHeld.equals(held)) {
            log.info("{} matches exchanges {} (was {}){}", region, nowHeld, held, leaseValid ? "" : ": exchange owners unread for " + lease);
            held = nowHeld;
            listeners.forEach(l -> l.accept(nowHeld));
        }
    }
}
