package org.brokerapp.ticker.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.Tick;
import org.brokerapp.ticker.pacing.ScheduledTick;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReplayFileTests {

    private static final RegionsModel REGIONS = RegionsFile.loadDefault();
    private static final SymbolUniverse UNIVERSE = SymbolUniverse.loadDefault();
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final String GOOD = """
            # three trades in two regions
            time,symbol,exchange,price,size

            2025-11-21T14:30:00.000125Z,AAPL,NASDAQ,230.01,100
            2025-11-21T14:30:00.500125Z,BHP,ASX,42.50,7
            2025-11-21T14:30:01Z,AAPL,NASDAQ,230.00,200
            2025-11-21T14:30:02.000125Z,JPM,NYSE,300.10,1
            """;

    @TempDir
    Path dir;

    @Test
    void aGoodFileIsCheckedAndCountedPerRegion() throws IOException {
        ReplayFile file = ReplayFile.check(write(GOOD), UNIVERSE, REGIONS);

        assertThat(file.rows()).isEqualTo(4);
        assertThat(file.rowsOf("us-east-1")).isEqualTo(3);
        assertThat(file.rowsOf("ap-southeast-2")).isEqualTo(1);
        assertThat(file.symbolsOf("us-east-1")).containsExactly("AAPL", "JPM");
        assertThat(file.firstTime()).isEqualTo(Instant.parse("2025-11-21T14:30:00.000125Z"));
        assertThat(file.lastTime()).isEqualTo(Instant.parse("2025-11-21T14:30:02.000125Z"));
    }

    @Test
    void aRegionReplaysItsOwnTradesInFileOrderWithSequencesPerSymbolAndOriginalTimes() throws IOException {
        ReplayFile file = ReplayFile.check(write(GOOD), UNIVERSE, REGIONS);

        List<ScheduledTick> ticks = all(file.ticksFor(REGIONS.region("us-east-1"), new Speed.Factor(1), EventTime.ORIGINAL, NOW));

        assertThat(ticks).extracting(ScheduledTick::tick).containsExactly(
                new Tick("AAPL", "NASDAQ", new BigDecimal("230.01"), 100, 1, Instant.parse("2025-11-21T14:30:00.000125Z")),
                new Tick("AAPL", "NASDAQ", new BigDecimal("230.00"), 200, 2, Instant.parse("2025-11-21T14:30:01Z")),
                new Tick("JPM", "NYSE", new BigDecimal("300.10"), 1, 1, Instant.parse("2025-11-21T14:30:02.000125Z")));
        assertThat(ticks).extracting(ScheduledTick::intendedNanos).containsExactly(0L, 999_875_000L, 2_000_000_000L);
    }

    @ParameterizedTest(name = "speed {0}")
    @CsvSource({"1, 2000000000", "10, 200000000", "0.5, 4000000000", "max, 0"})
    void theSpeedDividesTheTimeBetweenTrades(String speed, long lastDueNanos) throws IOException {
        ReplayFile file = ReplayFile.check(write(GOOD), UNIVERSE, REGIONS);

        List<ScheduledTick> ticks = all(file.ticksFor(REGIONS.region("us-east-1"), Speed.parse(speed), EventTime.NOW, NOW));

        assertThat(ticks.get(2).intendedNanos()).isEqualTo(lastDueNanos);
        assertThat(ticks.get(2).tick().eventTime()).as("event time now = when the tick is due").isEqualTo(NOW.plusNanos(lastDueNanos));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # what,                 the bad line (the file's line 3),                  the message names
            too few fields          | 2025-11-21T14:30:00Z,AAPL,NASDAQ,230.01            | line 3: expected 5 fields (time,symbol,exchange,price,size), found 4
            too many fields         | 2025-11-21T14:30:00Z,AAPL,NASDAQ,230.01,100,x      | line 3: expected 5 fields
            not a time              | yesterday,AAPL,NASDAQ,230.01,100                   | line 3: time is not an ISO-8601 UTC instant
            a time without a zone   | 2025-11-21T14:30:00,AAPL,NASDAQ,230.01,100         | line 3: time is not an ISO-8601 UTC instant
            nanoseconds             | 2025-11-21T14:30:00.123456789Z,AAPL,NASDAQ,230.01,100 | line 3: time has more than microsecond precision
            time going backwards    | 2025-11-21T14:29:59Z,AAPL,NASDAQ,230.01,100        | line 3: time 2025-11-21T14:29:59Z is earlier than line 2's
            unknown symbol          | 2025-11-21T14:30:00Z,ZZZZ,NASDAQ,230.01,100        | line 3: unknown symbol 'ZZZZ'
            wrong exchange          | 2025-11-21T14:30:00Z,AAPL,NYSE,230.01,100          | line 3: AAPL is listed on NASDAQ, not on 'NYSE'
            price not a number      | 2025-11-21T14:30:00Z,AAPL,NASDAQ,abc,100           | line 3: price is not a decimal like 187.44: 'abc'
            price with exponent     | 2025-11-21T14:30:00Z,AAPL,NASDAQ,2.3E2,100         | line 3: price is not a decimal
            negative price          | 2025-11-21T14:30:00Z,AAPL,NASDAQ,-230.01,100       | line 3: price is not a decimal
            zero price              | 2025-11-21T14:30:00Z,AAPL,NASDAQ,0.00,100          | line 3: price must be > 0
            price with a blank      | 2025-11-21T14:30:00Z,AAPL,NASDAQ, 230.01,100       | line 3: price is not a decimal
            empty size              | 2025-11-21T14:30:00Z,AAPL,NASDAQ,230.01,           | line 3: size is not a whole number of shares: ''
            fractional size         | 2025-11-21T14:30:00Z,AAPL,NASDAQ,230.01,1.5        | line 3: size is not a whole number
            zero size               | 2025-11-21T14:30:00Z,AAPL,NASDAQ,230.01,0          | line 3: size must be > 0
            quoted field            | 2025-11-21T14:30:00Z,"AAPL",NASDAQ,230.01,100      | line 3: quoted fields are not supported
            """)
    void aBadRowIsRefusedWithItsLineNumber(String what, String line, String expected) throws IOException {
        Path file = write("time,symbol,exchange,price,size\n2025-11-21T14:30:00Z,MSFT,NASDAQ,480.00,100\n" + line + "\n");

        assertThatThrownBy(() -> ReplayFile.check(file, UNIVERSE, REGIONS))
                .as(what)
                .isInstanceOf(ReplayFileException.class)
                .hasMessageStartingWith(file + " line 3: ")
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void aFileWithoutTheHeaderIsRefusedAtItsFirstLine() throws IOException {
        Path file = write("# comment\nsymbol,price\nAAPL,1.00\n");

        assertThatThrownBy(() -> ReplayFile.check(file, UNIVERSE, REGIONS))
                .hasMessage(file + " line 2: the header must be 'time,symbol,exchange,price,size', was 'symbol,price'");
    }

    @Test
    void aFileWithoutTradesIsRefused() throws IOException {
        Path file = write("time,symbol,exchange,price,size\n# nothing\n");

        assertThatThrownBy(() -> ReplayFile.check(file, UNIVERSE, REGIONS)).hasMessage(file + " has no trades");
    }

    @Test
    void aMissingFileIsRefusedInOneLine() {
        Path missing = dir.resolve("missing.csv");

        assertThatThrownBy(() -> ReplayFile.check(missing, UNIVERSE, REGIONS))
                .isInstanceOf(ReplayFileException.class)
                .hasMessage("cannot read replay file " + missing + ": it does not exist or is not a readable file");
    }

    @Test
    void bytesThatAreNotUtf8AreRefusedNamingTheLine() throws IOException {
        Path file = dir.resolve("latin1.csv");
        Files.write(file, new byte[] {'t', 'i', 'm', 'e', '\n', (byte) 0xff, (byte) 0xfe, '\n'});

        assertThatThrownBy(() -> ReplayFile.check(file, UNIVERSE, REGIONS))
                .isInstanceOf(ReplayFileException.class)
                .hasMessageStartingWith("cannot read replay file " + file)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @ParameterizedTest
    @CsvSource({"nyse-nasdaq-open.csv, us-east-1, 600", "asx-open.csv, ap-southeast-2, 400"})
    void theShippedSamplesAreValidAndEachCoversOneRegion(String sample, String region, long rows) {
        Path file = Path.of("samples", sample);
        ReplayFile replay = ReplayFile.check(file, UNIVERSE, REGIONS);

        assertThat(replay.rows()).isEqualTo(rows);
        assertThat(replay.rowsOf(region)).isEqualTo(rows);
        assertThat(Duration.between(replay.firstTime(), replay.lastTime())).isBetween(Duration.ofSeconds(20), Duration.ofSeconds(40));
    }

    private Path write(String content) throws IOException {
        Path file = dir.resolve("trades.csv");
        Files.writeString(file, content);
        return file;
    }

    private static List<ScheduledTick> all(ReplayTicks ticks) {
        List<ScheduledTick> all = new ArrayList<>();
        try (ticks) {
            ticks.forEachRemaining(all::add);
        }
        return all;
    }
}
