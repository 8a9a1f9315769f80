package org.brokerapp.broker.session;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * When an exchange trades, in its own time zone: regular hours on its trading days, none on its
 * holidays, an earlier close on its half days. Times are the exchange's wall clock, so a session
 * keeps its local hours across daylight-saving changes (New York's 16:00 close is 21:00 UTC in
 * winter and 20:00 in summer; Sydney's moves the other way).
 */
public record ExchangeCalendar(String exchange, ZoneId zone, LocalTime open, LocalTime close, Set<DayOfWeek> tradingDays,
                               Set<LocalDate> holidays, Map<LocalDate, LocalTime> earlyCloses) {

    /** Looking further for the next session than this means the calendar has none (every day a holiday). */
    private static final int MAX_DAYS_AHEAD = 31;

    public ExchangeCalendar {
        Objects.requireNonNull(zone, "zone");
        if (!open.isBefore(close)) {
            throw new IllegalArgumentException(exchange + ": the session must open before it closes, was " + open + "-" + close);
        }
        if (tradingDays.isEmpty()) {
            throw new IllegalArgumentException(exchange + ": no trading days");
        }
        earlyCloses.forEach((day, at) -> {
            if (!open.isBefore(at) || at.isAfter(close)) {
                throw new IllegalArgumentException(exchange + ": the early close of " + day + " (" + at + ") is not within " + open + "-" + close);
            }
        });
        tradingDays = Set.copyOf(tradingDays);
        holidays = Set.copyOf(holidays);
        earlyCloses = Map.copyOf(earlyCloses);
    }

    /** One trading day's session: from its open to its close, as instants. */
    public record Session(LocalDate date, Instant opens, Instant closes) {

        public boolean isOpenAt(Instant at) {
            return !at.isBefore(opens) && at.isBefore(closes);
        }
    }

    /** The session of {@code date}, if the exchange trades that day. */
    public Optional<Session> sessionOn(LocalDate date) {
        if (!tradingDays.contains(date.getDayOfWeek()) || holidays.contains(date)) {
            return Optional.empty();
        }
        LocalTime closes = earlyCloses.getOrDefault(date, close);
        return Optional.of(new Session(date, date.atTime(open).atZone(zone).toInstant(), date.atTime(closes).atZone(zone).toInstant()));
    }

    /**
     * The session in progress at {@code at}, or else the next one to open: the session a DAY order
     * placed at {@code at} belongs to (one placed after the close or on a holiday waits for the next).
     */
    public Session currentOrNext(Instant at) {
        LocalDate day = at.atZone(zone).toLocalDate();
        for (int ahead = 0; ahead <= MAX_DAYS_AHEAD; ahead++) {
            Optional<Session> session = sessionOn(day.plusDays(ahead));
            if (session.isPresent() && at.isBefore(session.get().closes())) {
                return session.get();
            }
        }
        throw new IllegalStateException(exchange + " has no session in the " + MAX_DAYS_AHEAD + " days after " + at);
    }

    public boolean isOpenAt(Instant at) {
        return currentOrNext(at).isOpenAt(at);
    }
}
