package org.brokerapp.regions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a Kafka client trusts when the Kafka listens with TLS: a PKCS12 truststore (the local stack's holds its CA).
 * {@link KafkaCredential#clientProperties(java.util.Optional)} adds its properties to a login over TLS ({@code SASL_SSL}).
 *
 * @param truststore the PKCS12 store of trusted certificates
 * @param password   its password
 */
public record KafkaTrust(Path truststore, String password) {

    public KafkaTrust {
        if (password == null || password.isBlank()) {
            throw new IllegalArgumentException("the Kafka truststore " + truststore + " needs its password");
        }
    }

    /** The truststore whose password is the first line of {@code passwordFile} (the local stack's {@code tls/store-password}). */
    public static KafkaTrust withPasswordFile(Path truststore, Path passwordFile) {
        try {
            return new KafkaTrust(truststore, Files.readString(passwordFile).lines().findFirst().orElse("").strip());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the truststore password file " + passwordFile + ": " + e.getMessage());
        }
    }

    /** Properties any Kafka client adds to check the broker's certificate; host names are checked too (Kafka's default). */
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
