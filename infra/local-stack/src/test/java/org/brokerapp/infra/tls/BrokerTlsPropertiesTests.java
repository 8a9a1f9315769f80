package org.brokerapp.infra.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.brokerapp.regions.CqlLogin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerTlsPropertiesTests {

    @TempDir
    Path dir;

    @Test
    void oneBundleOfTheStacksStoresServesHttpsCqlAndThePeerLinksAndKafkaReadsItsTruststoreAndCqlGetsTheBrokersRole() {
        StackTls tls = LocalCertificates.issue(dir, Map.of("broker-us-east-1", List.of("127.0.1.3")), Instant.now());

        Map<String, String> settings = BrokerTlsProperties.of(tls, tls.keystore("broker-us-east-1"), new CqlLogin("broker", "s3cret"));

        assertThat(settings).containsEntry("server.ssl.bundle", "local-stack")
                .containsEntry("spring.cassandra.ssl.enabled", "true")
                .containsEntry("spring.cassandra.ssl.bundle", "local-stack")
                .containsEntry("broker.routing.ssl-bundle", "local-stack")
                .containsEntry("spring.ssl.bundle.jks.local-stack.keystore.location", tls.keystore("broker-us-east-1").toUri().toString())
                .containsEntry("spring.ssl.bundle.jks.local-stack.truststore.location", tls.truststore().toUri().toString())
                .containsEntry("spring.ssl.bundle.jks.local-stack.keystore.type", "PKCS12")
                .containsEntry("spring.ssl.bundle.jks.local-stack.truststore.password", tls.password())
                .containsEntry("broker.kafka.truststore", tls.truststore().toString())
                .containsEntry("broker.kafka.truststore-password", tls.password())
                .containsEntry("spring.cassandra.username", "broker")
                .containsEntry("spring.cassandra.password", "s3cret");
    }

    @Test
    void theFileForABrokerStartedByHandReadsBackAndOnlyItsOwnerCanReadIt() throws Exception {
        Path file = dir.resolve("broker-us-east-1.properties");
        Map<String, String> settings = Map.of("spring.ssl.bundle.jks.local-stack.keystore.location", "file:/x/broker-us-east-1.p12",
                "broker.routing.peers.ap-southeast-2", "https://127.1.2.3:8080");

        BrokerTlsProperties.write(file, settings);
        BrokerTlsProperties.write(file, settings);

        Properties read = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            read.load(in);
        }
        assertThat(read).containsExactlyInAnyOrderEntriesOf(settings);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }
}
