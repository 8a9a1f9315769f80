package org.brokerapp.ticker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.brokerapp.regions.SymbolUniverse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The command line's exits and messages; nothing here reaches Kafka (port 1 refuses at once). */
class TickerFeedCliTests {

    private static final SymbolUniverse UNIVERSE = SymbolUniverse.loadDefault();

    @TempDir
    static Path dir;

    @Test
    void helpPrintsTheUsageAndSucceeds() {
        Result result = run("--help");

        assertThat(result.status()).isZero();
        assertThat(result.out()).startsWith("usage: ticker-feed simulate").contains("replay", "--burst", "127.0.r.2:9092",
                "--failover EXCHANGE=REGION");
        assertThat(result.err()).isEmpty();
    }

    @Test
    void versionPrintsTheBuildsVersionAndSucceeds() {
        Result result = run("--version");

        assertThat(result.status()).isZero();
        assertThat(result.out()).matches("ticker-feed \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n");
        assertThat(result.err()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # arguments                                                                    | status | the one line on stderr
            ''                                                                             | 2      | ticker-feed: no command: simulate, replay or --help
            simulate --region mars --bootstrap-servers 127.0.0.1:1                         | 2      | ticker-feed: --region: unknown region 'mars'; known: [us-east-1, ap-southeast-2]
            simulate --region us-east-1 --rate 0 --bootstrap-servers 127.0.0.1:1           | 2      | ticker-feed: --rate must be a number of ticks per second > 0, was '0'
            simulate --region us-east-1 --rate -3 --bootstrap-servers 127.0.0.1:1          | 2      | ticker-feed: --rate must be a number of ticks per second > 0, was '-3'
            replay --region us-east-1 --file /no/such/file.csv --bootstrap-servers 127.0.0.1:1 | 1  | ticker-feed: cannot read replay file /no/such/file.csv: it does not exist or is not a readable file
            replay --region us-east-1 --file DIR/bad-row.csv --bootstrap-servers 127.0.0.1:1   | 1  | ticker-feed: DIR/bad-row.csv line 4: price is not a decimal like 187.44: '230.02USD'
            replay --region us-east-1 --file DIR/asx-only.csv --bootstrap-servers 127.0.0.1:1  | 1  | ticker-feed: DIR/asx-only.csv has no trades on the exchanges of [us-east-1]
            simulate --region us-east-1 --regions /no/regions.yaml --bootstrap-servers 127.0.0.1:1 | 1 | ticker-feed: regions file /no/regions.yaml does not exist or is not readable
            simulate --region us-east-1 --count 1 --kafka-timeout 1s --bootstrap-servers 127.0.0.1:1 | 1 | ticker-feed: us-east-1: Kafka at 127.0.0.1:1 did not answer within 1 s
            simulate --region us-east-1 --count 1 --kafka-user feed --kafka-password-file /no/feed.password --bootstrap-servers 127.0.0.1:1 | 1 | ticker-feed: cannot read the Kafka password file /no/feed.password: /no/feed.password
            simulate --region us-east-1 --failover LSE=us-east-1 --bootstrap-servers 127.0.0.1:1  | 2 | ticker-feed: --failover LSE=us-east-1: unknown exchange 'LSE'; known: [NYSE, NASDAQ, ASX]
            simulate --region us-east-1 --failover NYSE=mars --bootstrap-servers 127.0.0.1:1      | 2 | ticker-feed: --failover NYSE=mars: unknown region 'mars'; known: [us-east-1, ap-southeast-2]
            replay --region us-east-1 --file DIR/bad-row.csv --failover NYSE=us-east-1 --bootstrap-servers 127.0.0.1:1 | 2 | ticker-feed: --failover NYSE=us-east-1: us-east-1 is the home of NYSE already; name the region that adopted it
            """)
    void badConfigurationEndsWithOneLineOnStderrAndANonZeroExit(String arguments, int status, String message) throws IOException {
        Files.writeString(dir.resolve("bad-row.csv"), """
                time,symbol,exchange,price,size
                2025-11-21T14:30:00Z,AAPL,NASDAQ,230.01,100
                # a currency in the price
                2025-11-21T14:30:01Z,AAPL,NASDAQ,230.02USD,100
                """);
        Files.writeString(dir.resolve("asx-only.csv"), "time,symbol,exchange,price,size\n2025-11-21T14:30:00Z,BHP,ASX,42.50,100\n");
        String[] args = arguments.isEmpty() ? new String[0] : arguments.replace("DIR", dir.toString()).split(" ");

        Result result = run(args);

        assertThat(result.status()).isEqualTo(status);
        assertThat(result.err().lines()).containsExactly(message.replace("DIR", dir.toString()) + (status == 2 ? " (ticker-feed --help shows the usage)" : ""));
    }

    @Test
    void simulateSendsAMovedExchangesSymbolsWithTheAdoptersFeed() {
        int asxAndNyse = UNIVERSE.onExchanges(List.of("ASX", "NYSE")).size();

        Result result = run("simulate", "--region", "ap-southeast-2", "--failover", "NYSE=ap-southeast-2",
                "--count", "1", "--kafka-timeout", "1s", "--bootstrap-servers", "127.0.0.1:1");

        assertThat(result.out().lines()).startsWith("NYSE ticks go to ap-southeast-2 (failover)");
        assertThat(result.out()).contains(String.format(Locale.ROOT, "[ap-southeast-2] simulating %,d symbols of ASX+NYSE at ", asxAndNyse));
        // no Kafka here: the run stops after the plan
        assertThat(result.err()).contains("Kafka at 127.0.0.1:1 did not answer");
    }

    @Test
    void replayLeavesAMovedExchangesTradesToTheAdopterAndSaysThisFeedDoesNotPublishThem() {
        Result result = run("replay", "--region", "us-east-1", "--failover", "NYSE=ap-southeast-2",
                "--file", "samples/nyse-nasdaq-open.csv", "--kafka-timeout", "1s", "--bootstrap-servers", "127.0.0.1:1");

        assertThat(result.out().lines()).startsWith(
                "NYSE ticks go to ap-southeast-2 (failover); not published by this feed: ap-southeast-2 is not a --region");
        assertThat(result.out()).contains("samples/nyse-nasdaq-open.csv: 600 trades from ",
                "; 499 on the exchanges of [us-east-1], 101 of other regions skipped");
        assertThat(result.out()).contains("[us-east-1] replaying 499 trades of ");
    }

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = TickerFeedCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), () -> false);
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Result(int status, String out, String err) {
    }
}
