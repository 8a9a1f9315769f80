package org.brokerapp.regions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaCredentialTests {

    @TempDir
    Path dir;

    @Test
    void clientsLogInWithScramOverSasl() {
        assertThat(new KafkaCredential("feed", "s3cret").clientProperties())
                .containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"feed\" password=\"s3cret\";");
    }

    @Test
    void overTlsTheSameLoginGoesOverSaslSslCheckedAgainstTheTruststore() {
        KafkaTrust trust = new KafkaTrust(Path.of("/stack/tls/truststore.p12"), "storepass");

        assertThat(new KafkaCredential("feed", "s3cret").clientProperties(java.util.Optional.of(trust)))
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("ssl.truststore.location", "/stack/tls/truststore.p12");
        assertThat(trust.clientProperties()).containsOnly(
                java.util.Map.entry("ssl.truststore.location", "/stack/tls/truststore.p12"),
                java.util.Map.entry("ssl.truststore.type", "PKCS12"),
                java.util.Map.entry("ssl.truststore.password", "storepass"));
        assertThat(trust.toString()).doesNotContain("storepass");
        assertThatThrownBy(() -> new KafkaTrust(Path.of("t.p12"), " ")).hasMessageContaining("needs its password");
    }

    @Test
    void thePasswordIsTheFilesFirstLine() throws Exception {
        Path file = dir.resolve("feed.password");
        Files.writeString(file, "s3cret\n");

        assertThat(KafkaCredential.fromPasswordFile("feed", file)).isEqualTo(new KafkaCredential("feed", "s3cret"));
    }

    @Test
    void aValueThatWouldBreakTheJaasLineIsRefused() {
        assertThatThrownBy(() -> new KafkaCredential("feed", "a\" b")).hasMessageContaining("password of feed");
        assertThatThrownBy(() -> new KafkaCredential("", "x")).hasMessageContaining("user name");
    }

    @Test
    void aMissingFileIsNamed() {
        assertThatThrownBy(() -> KafkaCredential.fromPasswordFile("feed", dir.resolve("none")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("none");
    }

    @Test
    void thePasswordIsNeverPrinted() {
        assertThat(new KafkaCredential("feed", "s3cret").toString()).doesNotContain("s3cret");
    }
}
