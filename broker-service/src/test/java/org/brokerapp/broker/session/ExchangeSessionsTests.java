package org.brokerapp.broker.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.brokerapp.regions.SymbolUniverse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When a DAY order expires, by the calendars the broker ships: each exchange's close in its own time zone, holidays and half days included. */
class ExchangeSessionsTests {

    private static final ExchangeSessions SHIPPED = ShippedCalendars.sessions();

    @ParameterizedTest(name = "{0} placed {1} expires {2}")
    @CsvSource(textBlock = """
            # in a session: its close, 16:00 New York (EST in December, EDT in July)
            NYSE,   2026-12-07T15:00:00Z, 2026-12-07T21:00:00Z
            NASDAQ, 2026-07-06T14:00:00Z, 2026-07-06T20:00:00Z
            # before the open: that day's close; after the close: the next day's
            NYSE,   2026-12-07T12:00:00Z, 2026-12-07T21:00:00Z
            NYSE,   2026-12-07T21:00:00Z, 2026-12-08T21:00:00Z
            # Friday evening: Monday's close
            NYSE,   2026-12-11T22:00:00Z, 2026-12-14T21:00:00Z
            # Christmas Eve closes at 13:00; Christmas is a holiday; so after the half day, Monday's close
            NYSE,   2026-12-24T17:00:00Z, 2026-12-24T18:00:00Z
            NYSE,   2026-12-24T18:30:00Z, 2026-12-28T21:00:00Z
            # Sydney: 16:00 AEDT is 05:00Z in December, 16:00 AEST 06:00Z in July
            ASX,    2026-12-07T02:00:00Z, 2026-12-07T05:00:00Z
            ASX,    2026-07-06T01:00:00Z, 2026-07-06T06:00:00Z
            # placed at 04:00 Sydney time Monday (Sunday 17:00Z): Monday's close in Sydney, whatever the UTC date
            ASX,    2026-12-06T17:00:00Z, 2026-12-07T05:00:00Z
            # Boxing Day observed on Monday 28 December: Tuesday's close
            ASX,    2026-12-24T04:00:00Z, 2026-12-29T05:00:00Z
            """)
    void aDayOrderExpiresAtTheCloseOfItsSession(String exchange, Instant placedAt, Instant expires) {
        assertThat(SHIPPED.dayOrderExpiry(exchange, placedAt)).isEqualTo(expires);
    }

    @Test
    void everyListedExchangeHasACalendar() {
        assertThat(SHIPPED.calendars().keySet()).containsAll(SymbolUniverse.loadDefault().exchanges());
    }

    @Test
    void theOpenAndCloseAreThoseOfTheExchangesOwnClock() {
        ExchangeCalendar nyse = SHIPPED.calendar("NYSE");
        assertThat(nyse.isOpenAt(Instant.parse("2026-12-07T14:30:00Z"))).isTrue(); // 09:30 EST
        assertThat(nyse.isOpenAt(Instant.parse("2026-12-07T14:29:59Z"))).isFalse();
        assertThat(nyse.isOpenAt(Instant.parse("2026-12-07T21:00:00Z"))).isFalse(); // the close itself is closed
        assertThat(nyse.isOpenAt(Instant.parse("2026-12-25T15:00:00Z"))).isFalse(); // Christmas
        assertThat(nyse.isOpenAt(Instant.parse("2026-12-12T15:00:00Z"))).isFalse(); // Saturday
    }

    @Test
    void aBrokerDoesNotStartWithoutACalendarForAnExchangeItLists() {
        SessionProperties onlyAsx = new SessionProperties(Map.of("ASX", ShippedCalendars.properties().exchanges().get("ASX")));

        assertThatThrownBy(() -> new ExchangeSessions(onlyAsx, SymbolUniverse.loadDefault()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("NYSE");
    }

    @Test
    void aCalendarWhoseSessionIsEmptyOrWhoseHalfDayIsOutsideItIsRefused() {
        ZoneId ny = ZoneId.of("America/New_York");
        Set<DayOfWeek> weekdays = Set.of(DayOfWeek.MONDAY);
        assertThatThrownBy(() -> new ExchangeCalendar("X", ny, LocalTime.of(16, 0), LocalTime.of(9, 30), weekdays, Set.of(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ExchangeCalendar("X", ny, LocalTime.of(9, 30), LocalTime.of(16, 0), weekdays, Set.of(),
                Map.of(LocalDate.of(2026, 12, 7), LocalTime.of(17, 0)))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCalendarWithoutASessionForAMonthSaysSo() {
        ZoneId ny = ZoneId.of("America/New_York");
        List<LocalDate> everyMonday = LocalDate.of(2026, 12, 7).datesUntil(LocalDate.of(2027, 3, 1), java.time.Period.ofWeeks(1)).toList();
        ExchangeCalendar closed = new ExchangeCalendar("X", ny, LocalTime.of(9, 30), LocalTime.of(16, 0), Set.of(DayOfWeek.MONDAY),
                Set.copyOf(everyMonday), Map.of());

        assertThatThrownBy(() -> closed.currentOrNext(Instant.parse("2026-12-07T12:00:00Z"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no session");
    }
}
