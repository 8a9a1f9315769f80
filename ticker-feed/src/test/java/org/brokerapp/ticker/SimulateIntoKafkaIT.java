package org.brokerapp.ticker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.publish.PartitionSpread;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One simulate run into both regions' Kafka, then what each region's topic holds. */
@LocalStackTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SimulateIntoKafkaIT {

    private static final int TICKS = 2_000;
    private static final SymbolUniverse UNIVERSE = SymbolUniverse.loadDefault();

    private final LocalStack stack;
    private FeedRunner.Result run;

    SimulateIntoKafkaIT(LocalStack stack) {
        this.stack = stack;
    }

    @BeforeAll
    void simulateIntoBothRegions() {
        run = FeedRunner.run("simulate", "--region", "us-east-1", "--region", "ap-southeast-2",
                "--bootstrap", "us-east-1=" + stack.kafkaBootstrapServers("us-east-1"),
                "--bootstrap", "ap-southeast-2=" + stack.kafkaBootstrapServers("ap-southeast-2"),
                // only the feed may write ticks
                "--kafka-user", KafkaAccess.FEED, "--kafka-password-file", stack.kafkaPasswordFile(KafkaAccess.FEED).toString(), "--count", Integer.toString(TICKS), "--rate", "4000", "--seed", "2026", "--progress", "200ms");
    }

    @ParameterizedTest
    @CsvSource({"us-east-1", "ap-southeast-2"})
    void everyTickArrivesExactlyOnceKeyedBySymbolOnThePartitionOfItsKey(String region) {
        List<TopicContents.Record> records = TopicContents.readAll(stack.kafkaClientConfig(region, KafkaAccess.ADMIN), Topics.TICKS);

        assertThat(run.status()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(records).hasSize(TICKS);
        assertThat(records).allSatisfy(r -> {
            assertThat(r.key()).isEqualTo(r.tick().symbol());
            assertThat(r.partition()).isEqualTo(PartitionSpread.partitionOf(r.key(), 12));
        });
    }

    @ParameterizedTest
    @CsvSource({"us-east-1", "ap-southeast-2"})
    void perSymbolSequencesAreGapFreeFromOneInOffsetOrder(String region) {
        List<TopicContents.Record> records = TopicContents.readAll(stack.kafkaClientConfig(region, KafkaAccess.ADMIN), Topics.TICKS);
        Map<String, Long> last = new HashMap<>();

        // a symbol's records share a partition, and a partition is read in offset order
        for (TopicContents.Record r : records) {
            long expected = last.getOrDefault(r.key(), 0L) + 1;
            assertThat(r.tick().sequence()).as(r.key() + " at offset " + r.offset()).isEqualTo(expected);
            last.put(r.key(), expected);
        }
        assertThat(last.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(TICKS);
    }

    @ParameterizedTest
    @CsvSource({"us-east-1, NYSE|NASDAQ", "ap-southeast-2, ASX"})
    void aRegionsKafkaHoldsOnlyTheSymbolsHomedThere(String region, String exchanges) {
        List<TopicContents.Record> records = TopicContents.readAll(stack.kafkaClientConfig(region, KafkaAccess.ADMIN), Topics.TICKS);
        Set<String> home = UNIVERSE.homedIn(stack.regions().region(region)).stream().map(Listing::symbol).collect(Collectors.toSet());

        assertThat(records).extracting(r -> r.tick().exchange()).containsOnly(exchanges.split("\\|"));
        assertThat(records).extracting(TopicContents.Record::key).allMatch(home::contains);
    }

    @Test
    void aFailedOverExchangesTicksLandInTheAdoptersKafka() {
        String topic = "ticks-failover";
        FeedRunner.Result failover = FeedRunner.run("simulate", "--region", "us-east-1", "--region", "ap-southeast-2",
                "--bootstrap", "us-east-1=" + stack.kafkaBootstrapServers("us-east-1"),
                "--bootstrap", "ap-southeast-2=" + stack.kafkaBootstrapServers("ap-southeast-2"),
                // a topic of its own, which the feed principal may not write
                "--kafka-user", KafkaAccess.ADMIN, "--kafka-password-file", stack.kafkaPasswordFile(KafkaAccess.ADMIN).toString(), "--failover", "NYSE=ap-southeast-2", "--topic", topic, "--count", "500", "--rate", "4000", "--progress", "off");

        assertThat(failover.status()).isZero();
        assertThat(failover.out()).startsWith("NYSE ticks go to ap-southeast-2 (failover)");
        assertThat(TopicContents.readAll(stack.kafkaClientConfig("us-east-1", KafkaAccess.ADMIN), topic))
                .hasSize(500).extracting(r -> r.tick().exchange()).containsOnly("NASDAQ");
        assertThat(TopicContents.readAll(stack.kafkaClientConfig("ap-southeast-2", KafkaAccess.ADMIN), topic))
                .hasSize(500).extracting(r -> r.tick().exchange()).containsOnly("ASX", "NYSE");
    }

    @ParameterizedTest
    @CsvSource({"us-east-1, 565", "ap-southeast-2, 205"})
    void theRunReportsTheKeySpreadProgressAndASummaryWithoutErrors(String region, int symbols) {
        String prefix = "[" + region + "] ";

        assertThat(run.out()).contains(prefix + "topic ticks: created with 12 partitions, replication factor 1");
        assertThat(run.out()).containsPattern(java.util.regex.Pattern.quote(prefix + "keys per partition (" + symbols
                + " symbols over 12 partitions): min ") + "\\d+, max \\d+, mean [\\d.]+, max/mean 1\\.\\d\\d");
        assertThat(run.out()).contains(prefix + "done: sent 2,000 ticks", "Kafka acknowledged 2,000");
        assertThat(run.out()).contains(prefix + "errors: none");
        assertThat(run.out()).containsPattern(java.util.regex.Pattern.quote(prefix + "rate: achieved ") + "[\\d,]+ ticks/s, target [\\d,]+ ticks/s: [\\d.]+ % of target");
        assertThat(run.out()).containsPattern(java.util.regex.Pattern.quote(prefix + "ticks per partition (12 partitions): min ") + "[\\d,]+, max");
    }
}
