package org.brokerapp.broker.session;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.brokerapp.broker.web.OpenApiConfiguration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/clock}: each exchange's session state now, as Alpaca's {@code /v2/clock} answers
 * for its one market: whether it is open, and when it next opens and closes.
 */
@RestController
@Tag(name = "clock")
@SecurityRequirement(name = OpenApiConfiguration.BEARER)
class ClockController {

    private final ExchangeSessions sessions;

    ClockController(ExchangeSessions sessions) {
        this.sessions = sessions;
    }

    /**
     * @param timestamp the instant this answer describes
     * @param exchanges every exchange the broker lists, by name
     */
    record Clock(Instant timestamp, List<ExchangeClock> exchanges) {
    }

    /**
     * @param localTime    the exchange's wall clock now
     * @param isOpen       whether its regular session is in progress
     * @param sessionDate  the session in progress, or the next one: the session a DAY order placed now belongs to
     * @param nextOpen     when the next session opens (the one after this, while a session is open)
     * @param nextClose    when the session of {@code sessionDate} closes: when a DAY order placed now expires
     */
    record ExchangeClock(String exchange, String timeZone, LocalDateTime localTime, boolean isOpen, LocalDate sessionDate, Instant nextOpen,
                         Instant nextClose) {
    }

    @Operation(summary = "Each exchange's session state: open or closed, its session's open and close")
    @GetMapping("/api/clock")
    Clock clock() {
        Instant now = Instant.now();
        List<ExchangeClock> exchanges = sessions.calendars().values().stream().sorted((a, b) -> a.exchange().compareTo(b.exchange())).map(c -> {
            ExchangeCalendar.Session session = c.currentOrNext(now);
            boolean open = session.isOpenAt(now);
            Instant nextOpen = open ? c.currentOrNext(session.closes()).opens() : session.opens();
            return new ExchangeClock(c.exchange(), c.zone().getId(), LocalDateTime.ofInstant(now, c.zone()), open, session.date(), nextOpen,
                    session.closes());
        }).toList();
        return new Clock(now, exchanges);
    }
}
