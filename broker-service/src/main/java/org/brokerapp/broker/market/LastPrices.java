package org.brokerapp.broker.market;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import org.brokerapp.broker.schema.BrokerCql;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.ticker.Tick;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The latest price of each symbol. The home broker knows it from its ticks and writes it behind, at
 * most once per {@code broker.market.price-write-interval} (5 s) per symbol: 600 ticks/s would
 * otherwise be 600 writes/s of no one's interest, and even once a second it was over a third of the
 * Cassandra writes per order in the demo (30 symbols, 20 orders/s). Other regions read the
 * replicated row, and keep what they read for {@link #REMOTE_READ_REUSE} (a MARKET order placed
 * away from the symbol's home reserves for this price plus the collar, so a price a few seconds
 * old only makes the collar do its job).
 */
@Component
public class LastPrices {

    /** A price and where it came from. */
    public record LastPrice(String symbol, BigDecimal price, long sequence, Instant tickTime, String region) {
    }

    /** A replicated row as read, and when (System.nanoTime). */
    private record Remote(Optional<LastPrice> price, long readNanos) {
    }

    /** How long a price read from another region's row is used before it is read again. */
    static final Duration REMOTE_READ_REUSE = Duration.ofSeconds(1);

    private final Map<String, LastPrice> latest = new ConcurrentHashMap<>();
    private final Map<String, LastPrice> unsaved = new ConcurrentHashMap<>();
    private final Map<String, Remote> remote = new ConcurrentHashMap<>();
    private final CqlSession session;
    private final BrokerCql cql;
    private final String region;

    public LastPrices(CqlSession session, BrokerCql cql, BrokerProperties properties) {
        this.session = session;
        this.cql = cql;
        this.region = properties.region();
    }

    public void update(Tick tick) {
        LastPrice price = new LastPrice(tick.symbol(), tick.price(), tick.sequence(), tick.eventTime(), region);
        latest.put(tick.symbol(), price);
        unsaved.put(tick.symbol(), price);
    }

    /** This broker's own latest price if it matches the symbol, else the replicated one. */
    public Optional<LastPrice> of(String symbol) {
        LastPrice local = latest.get(symbol);
        if (local != null) {
            return Optional.of(local);
        }
        Remote known = remote.get(symbol);
        if (known != null && System.nanoTime() - known.readNanos() < REMOTE_READ_REUSE.toNanos()) {
            return known.price();
        }
        long reading = System.nanoTime();
        Row row = session.execute(cql.selectLastPrice.bind(symbol)).one();
        Optional<LastPrice> price = row == null ? Optional.empty()
                : Optional.of(new LastPrice(symbol, row.getBigDecimal("price"), row.getLong("sequence"), row.getInstant("tick_time"), row.getString("region")));
        remote.put(symbol, new Remote(price, reading));
        return price;
    }

    @Scheduled(fixedDelayString = "${broker.market.price-write-interval:5s}")
    void flush() {
        for (String symbol : unsaved.keySet()) {
            LastPrice p = unsaved.remove(symbol);
            if (p != null) {
                session.executeAsync(cql.saveLastPrice.bind(p.price(), p.sequence(), p.tickTime(), p.region(), p.symbol()));
            }
        }
    }
}
