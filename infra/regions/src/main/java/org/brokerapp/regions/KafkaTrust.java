package org.brokerapp.regions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a Kafka client trusts when the Kafka listens with TLS. {@link KafkaCredential#clientProperties(java.util.Optional)}
 * adds its properties to a login over TLS ({@code SASL_SSL}); host names are checked too (Kafka's default).
 * <ul>
 *   <li>{@link Pkcs12Store}: a PKCS12 truststore and its password (the local stack's);</li>
 *   <li>{@link PemCertificates}: CA certificates in PEM, passed inline (Terraform's CA, from its outputs or a file).</li>
 * </ul>
 */
public sealed interface KafkaTrust {

    /** Properties any Kafka client adds to check the broker's certificate. */
    Map<String, Object> clientProperties();

    /** A PKCS12 store of trusted certificates and its password. */
    record Pkcs12Store(Path truststore, String password) implements KafkaTrust {

        public Pkcs12Store {
            if (password == null || password.isBlank()) {
                throw new IllegalArgumentException("the Kafka truststore " + truststore + " needs its password");
            }
        }

        @Override
        public Map<String, Object> clientProperties() {
            return Map.of("ssl.truststore.location", truststore.toString(),
                    "ssl.truststore.type", "PKCS12",
                    "ssl.truststore.password", password);
        }

        @Override
        public String toString() {
            return "KafkaTrust[" + truststore + "]";
        }
    }

    /** One or more CA certificates in PEM ({@code -----BEGIN CERTIFICATE-----} blocks); a PEM store has no password. */
    record PemCertificates(String pem) implements KafkaTrust {

        public PemCertificates {
            pem = SecretFiles.pemCertificates(pem, "Kafka's CA");
        }

        @Override
        public Map<String, Object> clientProperties() {
            return Map.of("ssl.truststore.type", "PEM",
                    "ssl.truststore.certificates", pem);
        }

        @Override
        public String toString() {
            return "KafkaTrust[" + SecretFiles.certificateCount(pem) + " PEM certificate(s)]";
        }
    }

    /** The PKCS12 truststore whose password is the first line of {@code passwordFile} (the local stack's {@code tls/store-password}). */
    static KafkaTrust withPasswordFile(Path truststore, Path passwordFile) {
        return new Pkcs12Store(truststore, SecretFiles.firstLine(passwordFile, "the truststore password file"));
    }

    /** The CA certificates of a PEM file (e.g. Terraform's {@code data_ca_cert_pem} output saved to disk). */
    static KafkaTrust pemFile(Path file) {
        try {
            return new PemCertificates(new String(Files.readAllBytes(file), StandardCharsets.US_ASCII)); // PEM is ASCII; other bytes are no certificate
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the Kafka CA file " + file + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage());
        }
    }
}
