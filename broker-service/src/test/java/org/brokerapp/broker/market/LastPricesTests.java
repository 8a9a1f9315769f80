package org.brokerapp.broker.market;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.brokerapp.ticker.Tick;
import org.junit.jupiter.api.Test;

/**
 * A price of another region's symbol costs a routed MARKET order no database read, except the
 * symbol's very first: a price older than the reuse time is answered as known and read again in
 * the background, one read at a time per symbol, however long ago it was read, as long as an order
 * may execute on it (its tick within the max price age); one too old for that is read again and
 * waited for.
 */
class LastPricesTests {

    private static final Instant TICKED = Instant.parse("2026-11-24T02:00:00Z");
    private static final Duration MAX_PRICE_AGE = Duration.ofSeconds(60);
    /** Now, for every test but the one that moves it: the ticks of {@link #row} are 10 s old. */
    private Clock clock = Clock.fixed(TICKED.plusSeconds(10), ZoneOffset.UTC);

    private final List<CompletableFuture<Optional<LastPrices.LastPrice>>> reads = new ArrayList<>();
    private Optional<LastPrices.LastPrice> firstRow = Optional.empty();

    /** Answers the first read with {@link #firstRow} at once (it is waited for); every later read stays in flight until the test completes it. */
    private LastPrices prices(Duration reuse) {
        return prices(reuse, symbol -> {
            CompletableFuture<Optional<LastPrices.LastPrice>> read = new CompletableFuture<>();
            if (reads.isEmpty()) {
                read.complete(firstRow);
            }
            reads.add(read);
            return read;
        });
    }

    private LastPrices prices(Duration reuse, LastPrices.RowReader rows) {
        return new LastPrices("ap-southeast-2", rows, reuse, MAX_PRICE_AGE, () -> clock.instant());
    }

    private static Optional<LastPrices.LastPrice> row(String price) {
        return Optional.of(new LastPrices.LastPrice("IBM", new BigDecimal(price), 7, TICKED, "us-east-1"));
    }

    @Test
    void theFirstOrderOfASymbolWaitsForItsRowAndLaterOnesWithinTheReuseTimeReadNothing() {
        LastPrices prices = prices(Duration.ofHours(1));
        firstRow = row("150.00");

        assertThat(prices.of("IBM")).map(LastPrices.LastPrice::price).contains(new BigDecimal("150.00"));
        assertThat(prices.of("IBM")).map(LastPrices.LastPrice::price).contains(new BigDecimal("150.00"));
        assertThat(reads).hasSize(1);
    }

    @Test
    void aSymbolMatchedHereIsNeverRead() {
        LastPrices prices = prices(Duration.ZERO);
        prices.update(new Tick("CBA", "ASX", new BigDecimal("110.00"), 10, 1, TICKED));

        assertThat(prices.of("CBA")).map(LastPrices.LastPrice::price).contains(new BigDecimal("110.00"));
        assertThat(reads).isEmpty();
    }

    /**
     * The broker-kill drill with two instances per region: the survivor took the dead instance's symbols over,
     * handed them back, and refused MARKET orders for them 60 s later ("no price") on the last tick it had seen.
     */
    @Test
    void aSymbolLetGoIsAnsweredFromItsRowNotFromTheLastTickSeenHere() {
        LastPrices prices = prices(Duration.ofHours(1));
        prices.update(new Tick("IBM", "NYSE", new BigDecimal("149.00"), 5, 1, TICKED.minusSeconds(120)));
        firstRow = row("150.00");

        prices.forget(List.of("IBM"));

        assertThat(prices.of("IBM")).map(LastPrices.LastPrice::price).contains(new BigDecimal("150.00"));
        assertThat(reads).hasSize(1);
    }

    @Test
    void aStalePriceIsAnsweredAtOnceAndReadAgainInTheBackgroundOnceAtATime() {
        LastPrices prices = prices(Duration.ZERO);
        firstRow = row("150.00");
        assertThat(prices.of("IBM")).map(LastPrices.LastPrice::price).contains(new BigDecimal("150.00"));

        assertThat(prices.of("IBM")).as("answered from what is known, not waiting").map(LastPrices.LastPrice::price).contains(new BigDecimal("150.00"));
        assertThat(prices.of("IBM")).map(LastPrices.LastPrice::price).contains(new BigDecimal("150.00"));
        assertThat(reads).as("the first read and one refresh in flight, not one per order").hasSize(2);

        reads.get(1).complete(row("151.00"));

        assertThat(prices.of("IBM")).map(LastPrices.LastPrice::price).contains(new BigDecimal("151.00"));
        assertThat(reads).as("stale again at once (reuse 0): the next refresh").hasSize(3);
    }

    @Test
    void aFailedRefreshKeepsThePriceKnownAndTheNextOrderTriesAgain() {
        LastPrices prices = prices(Duration.ZERO);
        firstRow = row("150.00");
        prices.of("IBM");
        prices.of("IBM");

        reads.get(1).completeExceptionally(new IllegalStateException("read timed out"));

        assertThat(prices.of("IBM")).map(LastPrices.LastPrice::price).contains(new BigDecimal("150.00"));
        assertThat(reads).hasSize(3);
    }

    @Test
    void noRowIsNotAnsweredStaleButReadAgainAndWaitedFor() {
        List<Optional<LastPrices.LastPrice>> rows = new ArrayList<>(List.of(Optional.empty(), row("150.00")));
        LastPrices prices = prices(Duration.ZERO, symbol -> CompletableFuture.completedFuture(rows.remove(0)));

        assertThat(prices.of("IBM")).as("no price written yet").isEmpty();
        assertThat(prices.of("IBM")).map(LastPrices.LastPrice::price).contains(new BigDecimal("150.00"));
    }

    /**
     * A symbol ordered every 25 s or so (each of the demo's away symbols): its price read on the last order is answered, and read
     * again behind the order, not waited for (each such order waited for a read when a read was served for 5 s only).
     */
    @Test
    void aPriceReadLongAgoIsAnsweredAtOnceWhileAnOrderMayStillExecuteOnIt() {
        LastPrices prices = prices(Duration.ZERO); // every read older than the reuse time
        firstRow = row("150.00");
        prices.of("IBM");
        clock = Clock.fixed(TICKED.plusSeconds(55), ZoneOffset.UTC);

        assertThat(prices.of("IBM")).as("its tick 55 s old, within the 60 s an order may execute on").map(LastPrices.LastPrice::price)
                .contains(new BigDecimal("150.00"));
        assertThat(reads).as("the first read, and one in the background").hasSize(2);
        assertThat(reads.get(1)).isNotDone();
    }

    @Test
    void aPriceTooOldToExecuteOnIsReadAgainAndWaitedFor() {
        List<Optional<LastPrices.LastPrice>> rows = new ArrayList<>(List.of(row("150.00"), Optional.of(new LastPrices.LastPrice("IBM",
                new BigDecimal("151.00"), 9, TICKED.plusSeconds(60), "us-east-1"))));
        LastPrices prices = prices(Duration.ZERO, symbol -> CompletableFuture.completedFuture(rows.remove(0)));
        assertThat(prices.of("IBM")).map(LastPrices.LastPrice::price).contains(new BigDecimal("150.00"));
        clock = Clock.fixed(TICKED.plusSeconds(61), ZoneOffset.UTC);

        assertThat(prices.of("IBM")).as("the row as it is now, not the price read before, whose tick is 61 s old")
                .map(LastPrices.LastPrice::price).contains(new BigDecimal("151.00"));
    }

    @Test
    void aFailedFirstReadFailsTheOrderWithTheDriversOwnException() {
        IllegalStateException timedOut = new IllegalStateException("read timed out");
        LastPrices prices = prices(Duration.ofHours(1), symbol -> CompletableFuture.failedFuture(timedOut));

        assertThatThrownBy(() -> prices.of("IBM")).isSameAs(timedOut);
    }
}
