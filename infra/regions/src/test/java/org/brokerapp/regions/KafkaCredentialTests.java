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
        KafkaTrust trust = new KafkaTrust.Pkcs12Store(Path.of("/stack/tls/truststore.p12"), "storepass");

        assertThat(new KafkaCredential("feed", "s3cret").clientProperties(java.util.Optional.of(trust)))
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("ssl.truststore.location", "/stack/tls/truststore.p12");
        assertThat(trust.clientProperties()).containsOnly(
                java.util.Map.entry("ssl.truststore.location", "/stack/tls/truststore.p12"),
                java.util.Map.entry("ssl.truststore.type", "PKCS12"),
                java.util.Map.entry("ssl.truststore.password", "storepass"));
        assertThat(trust.toString()).doesNotContain("storepass");
        assertThatThrownBy(() -> new KafkaTrust.Pkcs12Store(Path.of("t.p12"), " ")).hasMessageContaining("needs its password");
    }

    @Test
    void aPemCaIsTrustedInlineWithoutAPassword() throws Exception {
        String ca = "-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----\n";
        Path file = dir.resolve("ca.pem");
        Files.writeString(file, ca);

        KafkaTrust trust = KafkaTrust.pemFile(file);

        assertThat(trust).isEqualTo(new KafkaTrust.PemCertificates(ca));
        assertThat(new KafkaCredential("feed", "s3cret").clientProperties(java.util.Optional.of(trust)))
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("ssl.truststore.type", "PEM")
                .containsEntry("ssl.truststore.certificates", ca.strip())
                .doesNotContainKeys("ssl.truststore.location", "ssl.truststore.password");
        assertThat(trust.toString()).isEqualTo("KafkaTrust[1 PEM certificate(s)]");
    }

    @Test
    void aCaFileWithoutCertificatesIsRefusedWithItsName() throws Exception {
        Path file = dir.resolve("truststore.p12");
        Files.write(file, new byte[] {0x30, (byte) 0x82, 0x01});

        assertThatThrownBy(() -> KafkaTrust.pemFile(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("truststore.p12").hasMessageContaining("PEM certificates");
        assertThatThrownBy(() -> KafkaTrust.pemFile(dir.resolve("none.pem"))).hasMessageContaining("cannot read the Kafka CA file");
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
