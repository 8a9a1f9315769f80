package org.brokerapp.ticker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.stack.LocalStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The topic the feed creates, and its report of how symbols spread over the partitions. */
@LocalStackTest
class TopicLayoutIT {

    private static final Pattern SPREAD = Pattern.compile(
            "keys per partition \\((\\d+) symbols over (\\d+) partitions\\): min (\\d+), max (\\d+), mean ([\\d.]+), max/mean ([\\d.]+)");

    private final LocalStack stack;

    TopicLayoutIT(LocalStack stack) {
        this.stack = stack;
    }

    @ParameterizedTest(name = "{0} partitions")
    @CsvSource({"7", "24"})
    void theFeedCreatesAMissingTopicWithTheConfiguredPartitions(int partitions) throws Exception {
        String topic = "layout-" + partitions;

        FeedRunner.Result run = simulate(topic, partitions);

        assertThat(run.status()).isZero();
        assertThat(partitionsOf(topic)).isEqualTo(partitions);
        assertThat(run.out()).contains("topic " + topic + ": created with " + partitions + " partitions");
    }

    @Test
    void anExistingTopicKeepsItsPartitionsAndTheFeedSaysSo() throws Exception {
        simulate("layout-existing", 5);

        FeedRunner.Result second = simulate("layout-existing", 12);

        assertThat(second.status()).isZero();
        assertThat(partitionsOf("layout-existing")).isEqualTo(5);
        assertThat(second.out()).contains("topic layout-existing: exists with 5 partitions",
                "WARNING: the topic has 5 partitions, not the configured 12; the feed never changes an existing topic");
    }

    @Test
    void theKeySpreadReportIsPrintedAndEvenForTheDefaultTwelvePartitions() {
        FeedRunner.Result run = simulate("layout-spread", 12);

        Matcher m = SPREAD.matcher(run.out());
        assertThat(m.find()).as("the spread line is printed").isTrue();
        int symbols = Integer.parseInt(m.group(1));
        assertThat(symbols).isEqualTo(565);
        assertThat(Integer.parseInt(m.group(2))).isEqualTo(12);
        assertThat(Integer.parseInt(m.group(3))).as("min").isPositive();
        assertThat(Double.parseDouble(m.group(5))).as("mean").isEqualTo(Math.round(symbols / 12.0 * 10) / 10.0);
        assertThat(Double.parseDouble(m.group(6))).as("max/mean").isBetween(1.0, 1.5);
    }

    private FeedRunner.Result simulate(String topic, int partitions) {
        return FeedRunner.run("simulate", "--region", "us-east-1", "--count", "100", "--rate", "1000", "--progress", "off", "--kafka-user", KafkaAccess.ADMIN, "--kafka-password-file", stack.kafkaPasswordFile(KafkaAccess.ADMIN).toString(),
                "--topic", topic, "--partitions", Integer.toString(partitions), "--bootstrap-servers", stack.kafkaBootstrapServers("us-east-1"));
    }

    private int partitionsOf(String topic) throws Exception {
        try (Admin admin = Admin.create(stack.kafkaClientConfig("us-east-1", KafkaAccess.ADMIN))) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().size();
        }
    }
}
