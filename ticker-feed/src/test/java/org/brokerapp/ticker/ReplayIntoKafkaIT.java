package org.brokerapp.ticker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.stack.LocalStack;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Replays of the shipped samples reproduce them in Kafka. */
@LocalStackTest
class ReplayIntoKafkaIT {

    private final LocalStack stack;

    ReplayIntoKafkaIT(LocalStack stack) {
        this.stack = stack;
    }

    @ParameterizedTest(name = "{0} into {1} at speed {2}")
    @CsvSource({"nyse-nasdaq-open.csv, us-east-1, max", "asx-open.csv, ap-southeast-2, 20"})
    void aReplayReproducesTheFileExactlyPerSymbol(String sample, String region, String speed) throws IOException {
        Path file = Path.of("samples", sample);
        String topic = "replay-" + region;

        FeedRunner.Result run = FeedRunner.run("replay", "--region", "us-east-1", "--region", "ap-southeast-2", "--file", file.toString(),
                "--speed", speed, "--topic", topic, "--progress", "off", "--kafka-user", KafkaAccess.ADMIN, "--kafka-password-file", stack.kafkaPasswordFile(KafkaAccess.ADMIN).toString(),
                "--bootstrap", "us-east-1=" + stack.kafkaBootstrapServers("us-east-1"),
                "--bootstrap", "ap-southeast-2=" + stack.kafkaBootstrapServers("ap-southeast-2"));

        assertThat(run.status()).isZero();
        assertThat(run.err()).isEmpty();
        Map<String, List<Trade>> expected = tradesBySymbol(file);
        Map<String, List<Trade>> published = new LinkedHashMap<>();
        List<TopicContents.Record> records = TopicContents.readAll(stack.kafkaClientConfig(region, KafkaAccess.ADMIN), topic);
        records.sort(Comparator.comparingInt(TopicContents.Record::partition).thenComparingLong(TopicContents.Record::offset));
        for (TopicContents.Record r : records) {
            Tick t = r.tick();
            List<Trade> ofSymbol = published.computeIfAbsent(t.symbol(), s -> new ArrayList<>());
            assertThat(t.sequence()).as(t.symbol()).isEqualTo(ofSymbol.size() + 1);
            ofSymbol.add(new Trade(t.eventTime(), t.symbol(), t.exchange(), t.price(), t.size()));
        }
        assertThat(published).isEqualTo(expected);
        assertThat(run.out()).contains("[" + (region.equals("us-east-1") ? "ap-southeast-2" : "us-east-1") + "] no trades on");
    }

    @ParameterizedTest
    @CsvSource({"asx-open.csv, 20"})
    void aPacedReplayTakesAtLeastTheFilesSpanDividedByTheSpeed(String sample, int speed) {
        Path file = Path.of("samples", sample);
        long start = System.nanoTime();

        FeedRunner.Result run = FeedRunner.run("replay", "--region", "ap-southeast-2", "--file", file.toString(), "--speed", Integer.toString(speed),
                "--topic", "replay-paced", "--progress", "off", "--kafka-user", KafkaAccess.ADMIN, "--kafka-password-file", stack.kafkaPasswordFile(KafkaAccess.ADMIN).toString(), "--bootstrap-servers", stack.kafkaBootstrapServers("ap-southeast-2"));

        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(run.status()).isZero();
        // the sample spans about 25 s: at 20x never faster than ~1.2 s (an upper bound would only measure the machine)
        assertThat(seconds).isGreaterThan(24.0 / speed);
    }

    private record Trade(Instant time, String symbol, String exchange, BigDecimal price, long size) {
    }

    private static Map<String, List<Trade>> tradesBySymbol(Path file) throws IOException {
        Map<String, List<Trade>> bySymbol = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("#") || line.isBlank() || line.startsWith("time,")) {
                continue;
            }
            String[] f = line.split(",");
            bySymbol.computeIfAbsent(f[1], s -> new ArrayList<>())
                    .add(new Trade(Instant.parse(f[0]), f[1], f[2], new BigDecimal(f[3]), Long.parseLong(f[4])));
        }
        return bySymbol;
    }
}
