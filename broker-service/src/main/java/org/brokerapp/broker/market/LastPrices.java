package org.brokerapp.broker.market;

import java.math.BigDecimal;
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
 * most once a second per symbol (600 ticks/s would otherwise be 600 writes/s of no one's interest);
 * other regions read the replicated row.
 */
@Component
public class LastPrices {

    /** A price and where it came from. */
    public record LastPrice(String symbol, BigDecimal price, long sequence, Instant tickTime, String region) {
    }

    private final Map<String, LastPrice> latest = new ConcurrentHashMap<>();
    private final Map<String, LastPrice> unsaved = new ConcurrentHashMap<>();
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
        Row row = session.execute(cql.selectLastPrice.bind(symbol)).one();
        return row == null ? Optional.empty()
                : Optional.of(new LastPrice(symbol, row.getBigDecimal("price"), row.getLong("sequence"), row.getInstant("tick_time"), row.getString("region")));
    }

    @Scheduled(fixedDelayString = "1s")
    void flush() {
        for (String symbol : unsaved.keySet()) {
            LastPrice p = unsaved.remove(symbol);
            if (p != null) {
                session.executeAsync(cql.saveLastPrice.bind(p.price(), p.sequence(), p.tickTime(), p.region(), p.symbol()));
            }
        }
    }
}
