package org.brokerapp.infra.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;

/**
 * Every Java module talks to Kafka with the client of the release the local stack runs (and Terraform
 * installs): the parent pom pins kafka-clients to infra/servers/kafka's version over the Spring Boot
 * BOM's older one.
 */
class KafkaClientVersionTests {

    @Test
    void theClientIsTheServersRelease() throws Exception {
        String pom = Files.readString(Path.of("..", "servers", "kafka", "pom.xml"));
        Matcher server = Pattern.compile("<kafka.version>([^<]+)</kafka.version>").matcher(pom);
        assertThat(server.find()).as("infra/servers/kafka/pom.xml names its Kafka release").isTrue();
        assertThat(AppInfoParser.getVersion()).isEqualTo(server.group(1));
    }
}
