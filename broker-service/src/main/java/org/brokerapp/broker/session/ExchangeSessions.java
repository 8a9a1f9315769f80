package org.brokerapp.broker.session;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.brokerapp.regions.SymbolUniverse;
import org.springframework.stereotype.Component;

/**
 * The session calendars of the exchanges this broker lists: when a DAY order expires, and what
 * {@code GET /api/clock} answers. A broker does not start without a calendar for every exchange
 * of its symbols.
 */
@Component
public class ExchangeSessions {

    private final Map<String, ExchangeCalendar> calendars = new TreeMap<>();

    public ExchangeSessions(SessionProperties properties, SymbolUniverse symbols) {
        properties.exchanges().forEach((name, exchange) -> calendars.put(name, exchange.calendar(name)));
        List<String> missing = symbols.exchanges().stream().filter(e -> !calendars.containsKey(e)).sorted().toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("no session calendar for " + missing + ": set broker.sessions.exchanges.<exchange>.zone, open and close");
        }
    }

    /**
     * When a DAY order on {@code exchange} placed at {@code placedAt} expires: the close of the
     * session in progress, or, placed outside one (after the close, on a weekend or holiday), the
     * close of the next session, as Alpaca queues a DAY order placed after hours for the next day.
     */
    public Instant dayOrderExpiry(String exchange, Instant placedAt) {
        return calendar(exchange).currentOrNext(placedAt).closes();
    }

    public ExchangeCalendar calendar(String exchange) {
        ExchangeCalendar calendar = calendars.get(exchange);
        if (calendar == null) {
            throw new IllegalArgumentException("no session calendar for " + exchange);
        }
        return calendar;
    }

    /** Every exchange's calendar, by name. */
    public Map<String, ExchangeCalendar> calendars() {
        return Map.copyOf(calendars);
    }
}
