package org.brokerapp.ticker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.brokerapp.ticker.pacing.Burst;
import org.brokerapp.ticker.pacing.RunLength;
import org.brokerapp.ticker.replay.EventTime;
import org.brokerapp.ticker.replay.Speed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CommandLineTests {

    @Test
    void aFullSimulateCommandIsRead() {
        Command command = CommandLine.parse("simulate", "--region", "us-east-1", "--region=ap-southeast-2",
                "--bootstrap", "us-east-1=127.0.1.2:9092", "--bootstrap", "ap-southeast-2=127.0.2.2:9092,127.0.2.3:9092",
                "--rate", "50000", "--duration", "30s", "--seed", "-7", "--skew", "0.8", "--burst", "5x:10s",
                "--partitions", "24", "--topic", "ticks-test", "--compression", "none", "--progress", "off");

        assertThat(command).isInstanceOf(Command.Simulate.class);
        Command.Simulate simulate = (Command.Simulate) command;
        assertThat(simulate.rate()).isEqualTo(50_000);
        assertThat(simulate.length()).isEqualTo(new RunLength.Lasting(Duration.ofSeconds(30)));
        assertThat(simulate.seed()).isEqualTo(-7);
        assertThat(simulate.skew()).isEqualTo(0.8);
        assertThat(simulate.burst()).isEqualTo(new Burst(5, Duration.ofSeconds(10)));
        FeedOptions feed = simulate.feed();
        assertThat(feed.regions()).containsExactly("us-east-1", "ap-southeast-2");
        assertThat(feed.bootstrap()).isEqualTo(Map.of("us-east-1", "127.0.1.2:9092", "ap-southeast-2", "127.0.2.2:9092,127.0.2.3:9092"));
        assertThat(feed.partitions()).isEqualTo(24);
        assertThat(feed.topic()).isEqualTo("ticks-test");
        assertThat(feed.compression()).isEqualTo("none");
        assertThat(feed.progress()).isZero();
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        Command.Simulate simulate = (Command.Simulate) CommandLine.parse("simulate", "--region", "us-east-1", "--bootstrap-servers", "localhost:9092");

        assertThat(simulate.rate()).isEqualTo(1000);
        assertThat(simulate.length()).isEqualTo(new RunLength.Unbounded());
        assertThat(simulate.seed()).isEqualTo(1);
        assertThat(simulate.skew()).isEqualTo(1.1);
        assertThat(simulate.burst()).isEqualTo(Burst.NONE);
        assertThat(simulate.feed().topic()).isEqualTo("ticks");
        assertThat(simulate.feed().partitions()).isEqualTo(12);
        assertThat(simulate.feed().compression()).isEqualTo("lz4");
        assertThat(simulate.feed().progress()).isEqualTo(Duration.ofSeconds(5));
        assertThat(simulate.feed().bootstrap()).isEqualTo(Map.of("us-east-1", "localhost:9092"));
        assertThat(simulate.feed().kafkaLogin()).isEmpty();
    }

    @Test
    void aKafkaLoginIsAUserAndAPasswordFile() {
        Command.Simulate simulate = (Command.Simulate) CommandLine.parse("simulate", "--region", "us-east-1", "--bootstrap-servers", "h:1",
                "--kafka-user", "feed", "--kafka-password-file", ".stack/kafka-credentials/feed.password");

        assertThat(simulate.feed().kafkaLogin()).contains(new FeedOptions.KafkaLogin("feed", Path.of(".stack/kafka-credentials/feed.password")));
    }

    @Test
    void aPemCaFileStandsForATruststore() {
        Command.Simulate simulate = (Command.Simulate) CommandLine.parse("simulate", "--region", "us-east-1", "--bootstrap-servers",
                "10.64.192.20:9092", "--kafka-user", "feed", "--kafka-password-file", "/etc/feed/feed-kafka-password", "--kafka-ca", "/etc/feed/data-ca.crt");
        assertThat(simulate.feed().kafkaLogin().flatMap(FeedOptions.KafkaLogin::truststore))
                .contains(FeedOptions.Truststore.pem(Path.of("/etc/feed/data-ca.crt")));
        assertThatThrownBy(() -> CommandLine.parse("simulate", "--region", "us-east-1", "--bootstrap-servers", "h:1", "--kafka-ca", "ca.crt",
                "--kafka-truststore", "t.p12", "--kafka-truststore-password-file", "p", "--kafka-user", "feed", "--kafka-password-file", "f"))
                .isInstanceOf(UsageException.class).hasMessageContaining("not both");
    }

    @Test
    void overTlsTheLoginCarriesATruststoreAndItsPasswordFileGivenTogether() {
        Command.Simulate simulate = (Command.Simulate) CommandLine.parse("simulate", "--region", "us-east-1", "--bootstrap-servers", "h:1",
                "--kafka-user", "feed", "--kafka-password-file", "feed.password",
                "--kafka-truststore", ".stack/tls/truststore.p12", "--kafka-truststore-password-file", ".stack/tls/store-password");

        assertThat(simulate.feed().kafkaLogin()).contains(new FeedOptions.KafkaLogin("feed", Path.of("feed.password"),
                java.util.Optional.of(new FeedOptions.Truststore(Path.of(".stack/tls/truststore.p12"), Path.of(".stack/tls/store-password")))));
        assertThatThrownBy(() -> CommandLine.parse("simulate", "--region", "us-east-1", "--bootstrap-servers", "h:1",
                "--kafka-user", "feed", "--kafka-password-file", "feed.password", "--kafka-truststore", "t.p12"))
                .isInstanceOf(UsageException.class).hasMessage("give --kafka-truststore and --kafka-truststore-password-file together");
        assertThatThrownBy(() -> CommandLine.parse("simulate", "--region", "us-east-1", "--bootstrap-servers", "h:1",
                "--kafka-truststore", "t.p12", "--kafka-truststore-password-file", "p"))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("--kafka-truststore and --kafka-ca go with a login");
    }

    @Test
    void aReplayCommandIsRead() {
        Command.Replay replay = (Command.Replay) CommandLine.parse("replay", "--region", "ap-southeast-2", "--file", "samples/asx-open.csv",
                "--speed", "max", "--event-time", "now", "--bootstrap-servers", "127.0.2.2:9092");

        assertThat(replay.file()).isEqualTo(Path.of("samples/asx-open.csv"));
        assertThat(replay.speed()).isEqualTo(new Speed.Max());
        assertThat(replay.eventTime()).isEqualTo(EventTime.NOW);
    }

    @Test
    void failoverOptionsAreReadInOrderByBothCommands() {
        Command.Simulate simulate = (Command.Simulate) CommandLine.parse("simulate", "--region", "ap-southeast-2",
                "--bootstrap-servers", "h:1", "--failover", "NYSE=ap-southeast-2", "--failover=NASDAQ=eu-west-2");
        Command.Replay replay = (Command.Replay) CommandLine.parse("replay", "--region", "ap-southeast-2", "--file", "f.csv",
                "--bootstrap-servers", "h:1", "--failover", "NYSE=ap-southeast-2");

        assertThat(simulate.feed().failover()).containsExactly(Map.entry("NYSE", "ap-southeast-2"), Map.entry("NASDAQ", "eu-west-2"));
        assertThat(replay.feed().failover()).containsExactly(Map.entry("NYSE", "ap-southeast-2"));
        assertThat(((Command.Simulate) CommandLine.parse("simulate", "--region", "us-east-1", "--bootstrap-servers", "h:1"))
                .feed().failover()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"--help", "-h", "help"})
    void helpWinsWhateverElseIsGiven(String help) {
        assertThat(CommandLine.parse("simulate", "--rate", "0", help)).isInstanceOf(Command.Help.class);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # arguments                                                                   | the one-line message
            ''                                                                            | no command
            trade --region us-east-1                                                      | unknown command 'trade'
            simulate --bootstrap-servers h:1                                              | no --region given
            simulate --region us-east-1                                                   | no Kafka for region us-east-1: give --bootstrap-servers HOST:PORT
            simulate --region us-east-1 --region us-east-1 --bootstrap-servers h:1        | --region us-east-1 is given twice
            simulate --region us-east-1 --bootstrap-servers h:1 --rate 0                  | --rate must be a number of ticks per second > 0, was '0'
            simulate --region us-east-1 --bootstrap-servers h:1 --rate -10                | --rate must be a number of ticks per second > 0, was '-10'
            simulate --region us-east-1 --bootstrap-servers h:1 --rate fast               | --rate must be a number of ticks per second > 0, was 'fast'
            simulate --region us-east-1 --bootstrap-servers h:1 --rate NaN                | --rate must be a number
            simulate --region us-east-1 --bootstrap-servers h:1 --rate 5 --rate 6         | option '--rate' (VALUE) should be specified only once
            simulate --region us-east-1 --bootstrap-servers h:1 --rate                    | Missing required parameter for option '--rate'
            simulate --region us-east-1 --bootstrap-servers h:1 --duration 30             | --duration: '30' is not a duration like 500ms, 30s, 2m or 1h
            simulate --region us-east-1 --bootstrap-servers h:1 --duration 0s             | --duration must be longer than 0
            simulate --region us-east-1 --bootstrap-servers h:1 --count 0                 | --count must be a whole number of ticks >= 1, was '0'
            simulate --region us-east-1 --bootstrap-servers h:1 --count 10 --duration 1s  | give --duration or --count, not both
            simulate --region us-east-1 --bootstrap-servers h:1 --skew -1                 | --skew must be a number from 0 to 10
            simulate --region us-east-1 --bootstrap-servers h:1 --seed 1.5                | --seed must be a whole number
            simulate --region us-east-1 --bootstrap-servers h:1 --burst 5:10s             | --burst must be MULTIPLIERx:DURATION, e.g. 5x:10s
            simulate --region us-east-1 --bootstrap-servers h:1 --burst 0x:10s            | --burst multiplier must be > 0
            simulate --region us-east-1 --bootstrap-servers h:1 --partitions 0            | --partitions must be a whole number from 1 to 10000
            simulate --region us-east-1 --bootstrap-servers h:1 --topic a/b               | --topic must be 1-249 characters
            simulate --region us-east-1 --bootstrap-servers h:1 --compression brotli      | --compression must be one of none, lz4, zstd, snappy, gzip
            simulate --region us-east-1 --bootstrap-servers h:1 --progress soon           | --progress: 'soon' is not a duration
            simulate --region us-east-1 --bootstrap-servers h:1 --file x.csv              | --file is an option of replay, not simulate
            simulate --region us-east-1 --bootstrap-servers h:1 --verbose x               | Unknown options: '--verbose'
            simulate --region us-east-1 --bootstrap-servers h:1 extra                     | Unmatched argument at index 4: 'extra'
            simulate --region us-east-1 --bootstrap-servers localhost                     | --bootstrap-servers must be HOST:PORT[,HOST:PORT...], was 'localhost'
            simulate --region us-east-1 --region ap-southeast-2 --bootstrap-servers h:1   | --bootstrap-servers names one Kafka, but 2 regions are given
            simulate --region us-east-1 --bootstrap us-west-2=h:1                         | --bootstrap names region us-west-2, which is not one of the --region options
            simulate --region us-east-1 --bootstrap h:1                                   | --bootstrap must be REGION=HOST:PORT, was 'h:1'
            simulate --region us-east-1 --bootstrap us-east-1=h:1 --bootstrap-servers h:2 | the Kafka of us-east-1 is given twice
            simulate --region us-east-1 --bootstrap-servers h:1 --kafka-user feed         | give --kafka-user and --kafka-password-file together
            simulate --region us-east-1 --bootstrap-servers h:1 --kafka-password-file f   | give --kafka-user and --kafka-password-file together
            simulate --region us-east-1 --bootstrap-servers h:1 --failover NYSE           | --failover must be EXCHANGE=REGION, e.g. NYSE=ap-southeast-2, was 'NYSE'
            simulate --region us-east-1 --bootstrap-servers h:1 --failover NYSE=          | --failover must be EXCHANGE=REGION, e.g. NYSE=ap-southeast-2, was 'NYSE='
            simulate --region us-east-1 --bootstrap-servers h:1 --failover =us-east-1     | --failover must be EXCHANGE=REGION, e.g. NYSE=ap-southeast-2, was '=us-east-1'
            simulate --region us-east-1 --bootstrap-servers h:1 --failover nyse=us-east-1 | --failover must be EXCHANGE=REGION, e.g. NYSE=ap-southeast-2, was 'nyse=us-east-1'
            simulate --region us-east-1 --bootstrap-servers h:1 --failover NYSE=a --failover NYSE=b | --failover NYSE is given twice
            simulate --region us-east-1 --bootstrap-servers h:1 --failover                | Missing required parameter for option '--failover'
            replay --region us-east-1 --bootstrap-servers h:1 --file f --failover ASX     | --failover must be EXCHANGE=REGION
            replay --region us-east-1 --bootstrap-servers h:1                             | replay needs --file TRADES.csv
            replay --region us-east-1 --bootstrap-servers h:1 --file f --speed 0          | --speed: speed must be a number > 0 (1 = original pace) or max
            replay --region us-east-1 --bootstrap-servers h:1 --file f --speed fast       | --speed: speed must be a number > 0
            replay --region us-east-1 --bootstrap-servers h:1 --file f --event-time later | --event-time must be original or now, was 'later'
            replay --region us-east-1 --bootstrap-servers h:1 --file f --rate 5           | --rate is an option of simulate, not replay
            """)
    void aWrongCommandLineIsRefusedInOneLine(String arguments, String message) {
        String[] args = arguments.isEmpty() ? new String[0] : arguments.split(" ");

        assertThatThrownBy(() -> CommandLine.parse(args))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
