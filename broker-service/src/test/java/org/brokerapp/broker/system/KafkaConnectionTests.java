package org.brokerapp.broker.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@code broker.kafka.*} becomes the start of every Kafka client's configuration: plaintext, or a login over TLS. */
class KafkaConnectionTests {

    @TempDir
    Path dir;

    @Test
    void aPkcs12TruststoreGoesWithItsPassword() {
        var kafka = kafka("/etc/broker/kafka-tls/ca.p12", "storepass");

        assertThat(kafka.connection()).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("ssl.truststore.type", "PKCS12")
                .containsEntry("ssl.truststore.location", "/etc/broker/kafka-tls/ca.p12")
                .containsEntry("ssl.truststore.password", "storepass");
    }

    @Test
    void aTruststoreWithoutAPasswordIsAPemFileOfCaCertificates() throws Exception {
        Path ca = dir.resolve("ca.pem");
        Files.writeString(ca, "-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----\n");

        assertThat(kafka(ca.toString(), "").connection()).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("ssl.truststore.type", "PEM")
                .containsEntry("ssl.truststore.certificates", "-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----")
                .doesNotContainKey("ssl.truststore.password");
    }

    @Test
    void aPkcs12StoreWithoutItsPasswordIsRefusedNamingTheFile() throws Exception {
        Path store = dir.resolve("ca.p12");
        Files.write(store, new byte[] {0x30, (byte) 0x82, 0x04});

        assertThatThrownBy(() -> kafka(store.toString(), "").connection()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ca.p12").hasMessageContaining("PEM certificates");
    }

    @Test
    void withoutATruststoreTheLoginIsPlaintext() {
        assertThat(kafka("", "").connection()).containsEntry("security.protocol", "SASL_PLAINTEXT")
                .doesNotContainKey("ssl.truststore.type");
    }

    private static BrokerProperties.Kafka kafka(String truststore, String password) {
        return new BrokerProperties.Kafka("10.0.0.20:9092", "", 8192, Duration.ofSeconds(10), "broker-us-east-1", "s3cret", truststore, password);
    }
}
