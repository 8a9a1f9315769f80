package org.brokerapp.broker.ticker;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.brokerapp.broker.ticker.TickGuard.Accepted;
import org.brokerapp.broker.ticker.TickGuard.Kind;
import org.brokerapp.broker.ticker.TickGuard.Refused;
import org.brokerapp.broker.ticker.TickGuard.Verdict;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.Tick;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The tick checks, each from a finding of issue #12 where there was one: every refusal says its kind. */
class TickGuardTests {

    private static final SymbolUniverse UNIVERSE = SymbolUniverse.loadDefault();
    private static final Instant NOW = Instant.parse("2026-11-22T15:00:00Z");
    private static final TickGuardProperties DEFAULTS = new TickGuardProperties(Duration.ofSeconds(5), Duration.ofMinutes(10), 10_000,
            new BigDecimal("0.10"), Map.of("T", new BigDecimal("0.25")), Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofSeconds(2), true);

    private final TickGuard guard = new TickGuard(UNIVERSE, DEFAULTS, null, null);

    /** Finding: one tick "price 0.0001, seq 9000000000" let a customer buy 1,000,000,000 AAPL for $100,000, and froze the price for good. */
    @Test
    void aForgedTickWithAHugeSequenceIsRefusedAndDoesNotFreezeTheSymbol() {
        assertThat(guard.check(tick("AAPL", "NASDAQ", "230.00", 41), NOW)).isInstanceOf(Accepted.class);

        assertThat(kind(guard.check(tick("AAPL", "NASDAQ", "0.0001", 9_000_000_000L), NOW))).isEqualTo(Kind.SEQUENCE_JUMP);

        // the real feed's next tick is no "duplicate" of the forged one
        assertThat(guard.check(tick("AAPL", "NASDAQ", "230.05", 42), NOW)).isInstanceOf(Accepted.class);
    }

    @Test
    void aForgedPriceWithAPlausibleSequenceIsOutsideTheBand() {
        guard.check(tick("AAPL", "NASDAQ", "230.00", 41), NOW);

        Verdict verdict = guard.check(tick("AAPL", "NASDAQ", "0.0001", 42), NOW);

        assertThat(kind(verdict)).isEqualTo(Kind.BAND);
        assertThat(((Refused) verdict).reason()).isEqualTo("price 0.0001 is outside AAPL's band of 10 % around 230.00 (its price at the band window's start)");
    }

    /** Finding: "IBM on ASX at 1.00" filled a resting NYSE BUY LIMIT at 1.00. */
    @Test
    void aTickNamingAnotherExchangeThanTheListingIsRefused() {
        Verdict verdict = guard.check(tick("IBM", "ASX", "1.00", 1), NOW);

        assertThat(kind(verdict)).isEqualTo(Kind.WRONG_EXCHANGE);
        assertThat(((Refused) verdict).reason()).isEqualTo("IBM is listed on NYSE, the tick says ASX");
    }

    @Test
    void aSymbolThatIsNotListedIsRefused() {
        assertThat(kind(guard.check(tick("ZZZZQ", "NYSE", "1.00", 1), NOW))).isEqualTo(Kind.UNKNOWN_SYMBOL);
    }

    @ParameterizedTest(name = "event time {0} s from now -> {1}")
    @CsvSource(textBlock = """
            6,      FUTURE
            3600,   FUTURE
            -601,   STALE
            -86400, STALE
            """)
    void anEventTimeFarFromTheClockIsRefused(long offsetSeconds, Kind expected) {
        Tick tick = new Tick("IBM", "NYSE", new BigDecimal("300.00"), 100, 1, NOW.plusSeconds(offsetSeconds));

        assertThat(kind(guard.check(tick, NOW))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "event time {0} s from now is accepted")
    @CsvSource(textBlock = """
            5
            0
            -600
            """)
    void anEventTimeWithinTheWindowIsAccepted(long offsetSeconds) {
        Tick tick = new Tick("IBM", "NYSE", new BigDecimal("300.00"), 100, 1, NOW.plusSeconds(offsetSeconds));

        assertThat(guard.check(tick, NOW)).isInstanceOf(Accepted.class);
    }

    @Test
    void aJumpUpToTheBoundIsAGapNotAForgery() {
        guard.check(tick("IBM", "NYSE", "300.00", 5), NOW);

        assertThat(guard.check(tick("IBM", "NYSE", "300.10", 10_005), NOW)).isInstanceOf(Accepted.class);
        assertThat(kind(guard.check(tick("IBM", "NYSE", "300.10", 20_006), NOW))).isEqualTo(Kind.SEQUENCE_JUMP);
    }

    @ParameterizedTest(name = "{0} from 100.00 -> {1}")
    @CsvSource(textBlock = """
            110.00, true
            90.00,  true
            110.01, false
            89.99,  false
            """)
    void theBandIsTenPercentAroundTheLastAcceptedPrice(String price, boolean accepted) {
        guard.check(tick("KO", "NYSE", "100.00", 1), NOW);

        assertThat(guard.check(tick("KO", "NYSE", price, 2), NOW) instanceof Accepted).isEqualTo(accepted);
    }

    @Test
    void aSymbolMayHaveItsOwnBand() {
        guard.check(tick("T", "NYSE", "20.00", 1), NOW);

        assertThat(guard.check(tick("T", "NYSE", "24.00", 2), NOW)).isInstanceOf(Accepted.class);
        assertThat(kind(guard.check(tick("T", "NYSE", "31.00", 3), NOW))).isEqualTo(Kind.BAND);
    }

    @Test
    void aRefusedTickDoesNotMoveTheReference() {
        guard.check(tick("KO", "NYSE", "100.00", 1), NOW);
        guard.check(tick("KO", "NYSE", "109.00", 2), NOW);
        guard.check(tick("KO", "NYSE", "150.00", 3), NOW);

        // in the next band window: 10 % of 109.00 (the last accepted), not of the refused 150.00
        Instant nextWindow = NOW.plus(Duration.ofMinutes(5));
        assertThat(guard.check(tick("KO", "NYSE", "119.90", 4, nextWindow), nextWindow)).isInstanceOf(Accepted.class);
    }

    /** Finding (#55): 130 ticks, each 9 % below the last, took MSFT from 480.45 to 0.0023 in half a second. */
    @Test
    void aWalkOfSmallStepsMovesThePriceAtMostOneBandPerWindow() {
        BigDecimal price = new BigDecimal("480.45");
        guard.check(tick("MSFT", "NASDAQ", price.toPlainString(), 1), NOW);
        int accepted = 0;
        for (int step = 1; step <= 130; step++) {
            price = price.multiply(new BigDecimal("0.91")).setScale(4, java.math.RoundingMode.DOWN).max(new BigDecimal("0.0001"));
            if (guard.check(tick("MSFT", "NASDAQ", price.toPlainString(), 1 + step), NOW.plusMillis(4L * step)).moves()) {
                accepted++;
            }
        }

        assertThat(accepted).as("only the first step is within 10 % of 480.45").isEqualTo(1);
        // the real feed's next tick, past the forger's numbers, is believed
        assertThat(guard.check(tick("MSFT", "NASDAQ", "480.50", 200), NOW.plusSeconds(1))).isInstanceOf(Accepted.class);
    }

    /**
     * Finding (#55): a symbol at 100, then 10,050 ticks at 120 (about five minutes of a liquid stock
     * after news), then ticks at 94: the 94s were refused as a "sequence jump" for good, since refused
     * ticks did not move the sequence. The sequence now follows the feed, and each move that persists
     * for the pause is taken.
     */
    @Test
    void aRealGapThatPersistsIsTakenAndNeverFreezesTheSymbol() {
        guard.check(tick("KO", "NYSE", "100.00", 1), NOW);
        long sequence = 1;
        Instant at = NOW;
        java.util.List<Verdict> verdicts = new java.util.ArrayList<>();
        for (int i = 0; i < 10_050; i++) {
            at = NOW.plusMillis(30L * i);
            verdicts.add(guard.check(tick("KO", "NYSE", "120.00", ++sequence, at), at));
        }
        Verdict firstAt94 = null;
        Instant filledAt = null;
        for (int i = 1; i <= 20_000 && filledAt == null; i++) {
            Instant t = at.plusMillis(30L * i);
            Verdict verdict = guard.check(tick("KO", "NYSE", "94.00", ++sequence, t), t);
            firstAt94 = firstAt94 == null ? verdict : firstAt94;
            verdicts.add(verdict);
            if (verdict.moves()) {
                filledAt = t;
            }
        }

        assertThat(verdicts).noneMatch(v -> v instanceof Refused r && r.kind() == Kind.SEQUENCE_JUMP);
        assertThat(verdicts).filteredOn(v -> v instanceof TickGuard.Reopened).hasSize(2);
        assertThat(filledAt).as("94 is taken one pause after the 120s ended").isNotNull()
                .isBeforeOrEqualTo(at.plus(DEFAULTS.reopenAfter()).plusSeconds(1));
    }

    /** Finding (#55): a forged sequence 1 reset the base, and the real feed's next numbers became a "jump". */
    @Test
    void aSequenceOneWhileTheFeedRunsIsRefusedAndTheFeedGoesOn() {
        guard.check(tick("KO", "NYSE", "100.00", 50_000), NOW);

        assertThat(kind(guard.check(tick("KO", "NYSE", "100.50", 1), NOW.plusMillis(500)))).isEqualTo(Kind.SEQUENCE_RESTART);
        assertThat(guard.check(tick("KO", "NYSE", "100.60", 50_001), NOW.plusSeconds(1))).isInstanceOf(Accepted.class);
    }

    /** Limit-up/limit-down: a market that really moved reopens after the pause, on the next tick's price. */
    @Test
    void aSymbolWhoseEveryTickIsOutOfBandForThePauseReopens() {
        guard.check(tick("KO", "NYSE", "100.00", 1), NOW);

        assertThat(kind(guard.check(tick("KO", "NYSE", "130.00", 2), NOW))).isEqualTo(Kind.BAND);
        assertThat(kind(guard.check(tick("KO", "NYSE", "131.00", 3), NOW.plus(Duration.ofMinutes(4))))).isEqualTo(Kind.BAND);
        assertThat(guard.check(tick("KO", "NYSE", "131.00", 4), NOW.plus(Duration.ofMinutes(5)))).isEqualTo(new TickGuard.Reopened("KO"));
        assertThat(guard.check(tick("KO", "NYSE", "132.00", 5), NOW.plus(Duration.ofMinutes(5)))).isInstanceOf(Accepted.class);
    }

    @Test
    void anInBandTickEndsTheLimitState() {
        guard.check(tick("KO", "NYSE", "100.00", 1), NOW);
        guard.check(tick("KO", "NYSE", "130.00", 2), NOW);
        guard.check(tick("KO", "NYSE", "101.00", 3), NOW.plus(Duration.ofMinutes(1)));

        // the pause starts again from this refusal: 5 minutes later, not 4
        assertThat(kind(guard.check(tick("KO", "NYSE", "130.00", 4), NOW.plus(Duration.ofMinutes(2))))).isEqualTo(Kind.BAND);
        assertThat(kind(guard.check(tick("KO", "NYSE", "130.00", 5), NOW.plus(Duration.ofMinutes(6))))).isEqualTo(Kind.BAND);
    }

    @Test
    void aRestartedFeedNumbersFromOneAgainOnceItsOldRunFellSilent() {
        guard.check(tick("KO", "NYSE", "100.00", 50_000), NOW);
        Instant later = NOW.plusSeconds(3);

        assertThat(guard.check(tick("KO", "NYSE", "100.50", 1, later), later)).isEqualTo(new TickGuard.Restarted("KO"));
        assertThat(guard.check(tick("KO", "NYSE", "100.60", 2, later), later)).isInstanceOf(Accepted.class);
    }

    @Test
    void anOldTickRedeliveredAfterASilenceIsADuplicate() {
        Instant later = NOW.plusSeconds(3);
        guard.check(tick("KO", "NYSE", "100.00", 7, NOW), NOW);

        assertThat(guard.check(tick("KO", "NYSE", "90.00", 6, NOW.minusSeconds(1)), later)).isInstanceOf(TickGuard.Duplicate.class);
    }

    @Test
    void aDuplicateIsLeftToTheConsumerAndMovesNothing() {
        guard.check(tick("KO", "NYSE", "100.00", 7), NOW);

        assertThat(guard.check(tick("KO", "NYSE", "100.00", 7), NOW)).isInstanceOf(TickGuard.Duplicate.class);
        assertThat(guard.check(tick("KO", "NYSE", "109.00", 8), NOW)).isInstanceOf(Accepted.class);
    }

    @Test
    void aSymbolTakenOverAfterARebalanceStartsAfresh() {
        guard.check(tick("KO", "NYSE", "100.00", 7), NOW);

        guard.forget(List.of("KO"));

        // held elsewhere meanwhile: the sequence and the price moved on legitimately
        assertThat(guard.check(tick("KO", "NYSE", "140.00", 900_000), NOW)).isInstanceOf(Accepted.class);
    }

    private static Kind kind(Verdict verdict) {
        assertThat(verdict).isInstanceOf(Refused.class);
        return ((Refused) verdict).kind();
    }

    private static Tick tick(String symbol, String exchange, String price, long sequence) {
        return tick(symbol, exchange, price, sequence, NOW);
    }

    private static Tick tick(String symbol, String exchange, String price, long sequence, Instant eventTime) {
        return new Tick(symbol, exchange, new BigDecimal(price), 100, sequence, eventTime);
    }
}
