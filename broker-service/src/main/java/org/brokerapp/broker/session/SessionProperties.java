package org.brokerapp.broker.session;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The session calendar of every exchange a broker lists (shipped for NYSE, NASDAQ and ASX in
 * {@code application.yaml}; the same in every region, since a DAY order's expiry is fixed by its
 * customer's owner wherever that is). Every exchange of the symbol universe needs one.
 *
 * @param exchanges by exchange name, e.g. {@code broker.sessions.exchanges.NYSE.zone=America/New_York}
 */
@Validated
@ConfigurationProperties("broker.sessions")
public record SessionProperties(@DefaultValue Map<String, @Valid Exchange> exchanges) {

    /**
     * @param zone        the exchange's time zone; its hours are wall-clock times there
     * @param open        the regular session's open, e.g. {@code 09:30}
     * @param close       the regular session's close, e.g. {@code 16:00}
     * @param tradingDays the days of the week it trades, e.g. {@code MONDAY,TUESDAY,...}
     * @param holidays    dates it does not trade
     * @param earlyCloses dates it closes early, and when (e.g. the day after Thanksgiving at 13:00)
     */
    public record Exchange(@NotNull ZoneId zone, @NotNull LocalTime open, @NotNull LocalTime close,
                           @DefaultValue({"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY"}) @NotEmpty Set<DayOfWeek> tradingDays,
                           @DefaultValue List<LocalDate> holidays, @DefaultValue Map<LocalDate, LocalTime> earlyCloses) {

        ExchangeCalendar calendar(String name) {
            return new ExchangeCalendar(name, zone, open, close, tradingDays, Set.copyOf(holidays), earlyCloses);
        }
    }
}
