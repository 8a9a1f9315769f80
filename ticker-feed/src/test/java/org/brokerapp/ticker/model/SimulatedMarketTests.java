package org.brokerapp.ticker.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.brokerapp.regions.Listing;
import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.Tick;
import org.brokerapp.ticker.pacing.Burst;
import org.brokerapp.ticker.pacing.RateSchedule;
import org.brokerapp.ticker.pacing.RunLength;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SimulatedMarketTests {

    private static final RegionsModel REGIONS = RegionsFile.loadDefault();
    private static final SymbolUniverse UNIVERSE = SymbolUniverse.loadDefault();
    private static final Instant START = Instant.parse("2025-11-21T14:30:00Z");

    @Test
    void theSameSeedGivesTheSameTicks() {
        assertThat(run("us-east-1", 42, 1.1, 5_000)).isEqualTo(run("us-east-1", 42, 1.1, 5_000));
    }

    @Test
    void anotherSeedGivesOtherTicks() {
        List<Tick> one = run("us-east-1", 42, 1.1, 1_000);
        List<Tick> other = run("us-east-1", 43, 1.1, 1_000);

        assertThat(other).isNotEqualTo(one);
        assertThat(symbols(other)).isNotEqualTo(symbols(one));
    }

    @Test
    void eachRegionDrawsFromItsOwnStreamSoTheSameSeedDoesNotRepeatAcrossRegions() {
        assertThat(SimulatedMarket.regionSeed(1, "us-east-1")).isNotEqualTo(SimulatedMarket.regionSeed(1, "ap-southeast-2"));
    }

    @ParameterizedTest
    @CsvSource({"us-east-1", "ap-southeast-2"})
    void perSymbolSequenceNumbersRiseByOneFromOne(String region) {
        Map<String, Long> last = new HashMap<>();
        for (Tick tick : run(region, 7, 1.1, 20_000)) {
            long expected = last.getOrDefault(tick.symbol(), 0L) + 1;
            assertThat(tick.sequence()).as(tick.symbol()).isEqualTo(expected);
            last.put(tick.symbol(), tick.sequence());
        }
    }

    @ParameterizedTest
    @CsvSource({"us-east-1, NYSE|NASDAQ", "ap-southeast-2, ASX"})
    void aRegionGetsTheTicksOfItsHomeExchangesOnly(String region, String exchanges) {
        List<Tick> ticks = run(region, 3, 0.0, 20_000);

        assertThat(ticks).extracting(Tick::exchange).containsOnly(exchanges.split("\\|"));
        assertThat(ticks.stream().map(Tick::symbol).distinct().count())
                .as("uniform popularity reaches most home symbols")
                .isGreaterThan(UNIVERSE.homedIn(REGIONS.region(region)).size() * 9L / 10);
        assertThat(ticks).allSatisfy(t -> assertThat(UNIVERSE.get(t.symbol()).exchange()).isEqualTo(t.exchange()));
    }

    @Test
    void withSkewTheHottestSymbolTradesFarMoreThanTheMedianOne() {
        Map<String, Long> counts = run("us-east-1", 5, 1.1, 50_000).stream()
                .collect(Collectors.groupingBy(Tick::symbol, Collectors.counting()));
        List<Long> descending = new ArrayList<>(counts.values());
        descending.sort((a, b) -> Long.compare(b, a));
        long hottest = descending.get(0);
        long median = descending.get(UNIVERSE.homedIn(REGIONS.region("us-east-1")).size() / 2);

        assertThat(hottest).isGreaterThan(20 * median);
    }

    @Test
    void theHottestSymbolsAreEachExchangesFirstListedInTurn() {
        List<String> ranking = SimulatedMarket.forRegion(REGIONS.region("us-east-1"), UNIVERSE, 1, 1.1, START)
                .ranking().stream().map(Listing::symbol).limit(4).toList();

        assertThat(ranking).containsExactly("BRK.B", "AAPL", "JPM", "MSFT");
    }

    @ParameterizedTest
    @CsvSource({"us-east-1", "ap-southeast-2"})
    void pricesArePositiveOnTheExchangeGridAndStartNearTheListingPrice(String region) {
        List<Tick> ticks = run(region, 11, 1.1, 20_000);
        Map<String, Tick> first = new HashMap<>();
        ticks.forEach(t -> first.putIfAbsent(t.symbol(), t));

        assertThat(ticks).allSatisfy(t -> {
            assertThat(t.price().signum()).isPositive();
            assertThat(t.price().remainder(TickSizes.of(t.exchange()).increment(t.price())).signum()).isZero();
            assertThat(t.size()).isPositive();
        });
        // the first ticks come within the first seconds of trading: a few per cent at most from the start price
        first.values().forEach(t -> assertThat(t.price().doubleValue())
                .as(t.symbol()).isBetween(UNIVERSE.get(t.symbol()).price().doubleValue() * 0.9, UNIVERSE.get(t.symbol()).price().doubleValue() * 1.1));
    }

    @Test
    void overATradingYearLogReturnsHaveTheListingsVolatility() {
        Listing listing = new Listing("TEST", "NYSE", "Test", new BigDecimal("100.00"), 0.30);
        SimulatedMarket market = new SimulatedMarket(List.of(listing), 99, 0, START);
        long day = (long) (PricePath.NANOS_PER_TRADING_YEAR / 252);
        List<Double> logReturns = new ArrayList<>();
        double previous = 100;
        for (int d = 1; d <= 252 * 8; d++) {
            double price = market.tickAt(d * day).price().doubleValue();
            logReturns.add(Math.log(price / previous));
            previous = price;
        }
        double mean = logReturns.stream().mapToDouble(x -> x).average().orElseThrow();
        double variance = logReturns.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / (logReturns.size() - 1);

        assertThat(Math.sqrt(variance * 252)).isBetween(0.27, 0.33);
    }

    @Test
    void aBurstPacksMoreTicksIntoTheSameTime() {
        RateSchedule schedule = new RateSchedule(1_000, new Burst(5, java.time.Duration.ofSeconds(1)));
        SimulatedTicks ticks = new SimulatedTicks(SimulatedMarket.forRegion(REGIONS.region("us-east-1"), UNIVERSE, 1, 1.1, START),
                schedule, new RunLength.Lasting(java.time.Duration.ofSeconds(3)));
        long count = 0;
        while (ticks.hasNext()) {
            ticks.next();
            count++;
        }

        assertThat(count).isEqualTo(5_000 + 2_000);
    }

    private static List<Tick> run(String region, long seed, double skew, int count) {
        SimulatedMarket market = SimulatedMarket.forRegion(REGIONS.region(region), UNIVERSE, seed, skew, START);
        SimulatedTicks ticks = new SimulatedTicks(market, new RateSchedule(10_000, Burst.NONE), new RunLength.Count(count));
        List<Tick> result = new ArrayList<>();
        ticks.forEachRemaining(t -> result.add(t.tick()));
        return result;
    }

    private static List<String> symbols(List<Tick> ticks) {
        return ticks.stream().map(Tick::symbol).toList();
    }
}
