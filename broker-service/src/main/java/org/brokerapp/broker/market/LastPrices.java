package org.brokerapp.broker.market;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.Row;
import org.brokerapp.broker.schema.BrokerCql;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.ticker.Tick;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The latest price of each symbol. The home broker knows it from its ticks and writes it behind, at
 * most once per {@code broker.market.price-write-interval} (5 s) per symbol: 600 ticks/s would
 * otherwise be 600 writes/s of no one's interest, and even once a second it was over a third of the
 * Cassandra writes per order in the demo (30 symbols, 20 orders/s). Other regions read the
 * replicated row: a MARKET order placed away from the symbol's home reserves for this price plus
 * the collar, and the executing region refuses a price above that bound, so a price some seconds
 * old only makes the collar do its job. Only a symbol's first order waits for that read; later
 * ones take the price known, and one read more than {@link #REMOTE_READ_REUSE} ago is read again
 * in the background, so no routed order pays a database read on its way while the price known is
 * one it may execute on (its tick within {@code broker.market.max-price-age}). A price too old for
 * that, or "no row", is read again and waited for: the row may hold a fresh one, and an order
 * answered from the old one would be refused "no price" (the demo's MARKET 422s, once).
 */
@Component
public class LastPrices {

    /** A price and where it came from. */
    public record LastPrice(String symbol, BigDecimal price, long sequence, Instant tickTime, String region) {
    }

    /** A replicated row as read, and when (System.nanoTime). */
    private record Remote(Optional<LastPrice> price, long readNanos) {
    }

    /** How long a price read from another region's row is used before it is read again (in the background). */
    static final Duration REMOTE_READ_REUSE = Duration.ofSeconds(1);

    static final int SYMBOLS_PER_BATCH = 10;

    private static final Logger log = LoggerFactory.getLogger(LastPrices.class);

    /** Reads a symbol's replicated row. */
    interface RowReader {
        CompletionStage<Optional<LastPrice>> read(String symbol);
    }

    private final Map<String, LastPrice> latest = new ConcurrentHashMap<>();
    private final Map<String, LastPrice> unsaved = new ConcurrentHashMap<>();
    private final Map<String, Remote> remote = new ConcurrentHashMap<>();
    private final Set<String> refreshing = ConcurrentHashMap.newKeySet();
    private final CqlSession session;
    private final BrokerCql cql;
    private final String region;
    private final RowReader rows;
    private final Duration reuse;
    private final Duration maxPriceAge;
    private final Supplier<Instant> now;

    @org.springframework.beans.factory.annotation.Autowired
    public LastPrices(CqlSession session, BrokerCql cql, BrokerProperties properties) {
        this.session = session;
        this.cql = cql;
        this.region = properties.region();
        this.rows = symbol -> session.executeAsync(cql.selectLastPrice.bind(symbol)).thenApply(rs -> Optional.ofNullable(rs.one()).map(row -> price(symbol, row)));
        this.reuse = REMOTE_READ_REUSE;
        this.maxPriceAge = properties.market().maxPriceAge();
        this.now = Instant::now;
    }

    LastPrices(String region, RowReader rows, Duration reuse, Duration maxPriceAge, Supplier<Instant> now) {
        this.session = null;
        this.cql = null;
        this.region = region;
        this.rows = rows;
        this.reuse = reuse;
        this.maxPriceAge = maxPriceAge;
        this.now = now;
    }

    public void update(Tick tick) {
        LastPrice price = new LastPrice(tick.symbol(), tick.price(), tick.sequence(), tick.eventTime(), region);
        latest.put(tick.symbol(), price);
        unsaved.put(tick.symbol(), price);
    }

    /**
     * Symbols this broker no longer matches (their ticks go to another instance or region now): the
     * replicated row answers for them from now on, not the last tick seen here, which would age
     * into a "no price" refusal while the symbol trades on elsewhere.
     */
    public void forget(Collection<String> symbols) {
        symbols.forEach(latest::remove);
    }

    /** This broker's own latest price if it matches the symbol, else the replicated one. */
    public Optional<LastPrice> of(String symbol) {
        LastPrice local = latest.get(symbol);
        if (local != null) {
            return Optional.of(local);
        }
        Remote known = remote.get(symbol);
        boolean stale = known == null || System.nanoTime() - known.readNanos() >= reuse.toNanos();
        if (known == null || stale && !executable(known.price())) {
            // nothing to answer with: "no row", or a price too old to execute on, would refuse an order whose price may be there by now
            try {
                return read(symbol).toCompletableFuture().join().price();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        }
        if (stale && refreshing.add(symbol)) {
            read(symbol).whenComplete((fresh, failed) -> {
                refreshing.remove(symbol);
                if (failed != null) {
                    log.debug("could not read the last price of {} again; the one known stays", symbol, failed);
                }
            });
        }
        return known.price();
    }

    private boolean executable(Optional<LastPrice> price) {
        return price.filter(p -> p.tickTime().isAfter(now.get().minus(maxPriceAge))).isPresent();
    }

    private CompletionStage<Remote> read(String symbol) {
        long reading = System.nanoTime();
        return rows.read(symbol).thenApply(price -> {
            Remote fresh = new Remote(price, reading);
            remote.merge(symbol, fresh, (old, now) -> now.readNanos() - old.readNanos() >= 0 ? now : old);
            return fresh;
        });
    }

    private static LastPrice price(String symbol, Row row) {
        return new LastPrice(symbol, row.getBigDecimal("price"), row.getLong("sequence"), row.getInstant("tick_time"), row.getString("region"));
    }

    /**
     * Writes the prices that changed since the last flush, {@value #SYMBOLS_PER_BATCH} symbols to an
     * unlogged batch: one request each, where a request per symbol cost Cassandra more CPU than the
     * writes themselves (see {@code order.RestingOrderRows}). Ten is where Cassandra starts warning
     * of a batch over many partitions.
     */
    @Scheduled(fixedDelayString = "${broker.market.price-write-interval:5s}")
    void flush() {
        List<BatchableStatement<?>> rows = new ArrayList<>();
        for (String symbol : unsaved.keySet()) {
            LastPrice p = unsaved.remove(symbol);
            if (p != null) {
                rows.add(cql.saveLastPrice.bind(p.price(), p.sequence(), p.tickTime(), p.region(), p.symbol()));
            }
        }
        for (int from = 0; from < rows.size(); from += SYMBOLS_PER_BATCH) {
            session.executeAsync(BatchStatement.newInstance(DefaultBatchType.UNLOGGED, rows.subList(from, Math.min(rows.size(), from + SYMBOLS_PER_BATCH))));
        }
    }
}
