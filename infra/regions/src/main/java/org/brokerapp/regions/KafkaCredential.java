package org.brokerapp.regions;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A Kafka principal's SCRAM-SHA-512 login, and the client properties that present it over
 * {@code SASL_PLAINTEXT} or, to a Kafka listening with TLS, {@code SASL_SSL} (with a {@link KafkaTrust}'s). Every client of a deployment's Kafka (brokers, feed, harness, tests) logs
 * in with one; which topics and groups each principal may use is decided by the Kafka's ACLs.
 *
 * @param username the principal's name ({@code User:<username>} in ACLs)
 * @param password its password
 */
public record KafkaCredential(String username, String password) {

    public static final String MECHANISM = "SCRAM-SHA-512";

    // the JAAS line quotes both values: a quote or backslash would end or escape it
    private static final Pattern SAFE = Pattern.compile("[^\"\\\\\\s]+");

    public KafkaCredential {
        if (username == null || !SAFE.matcher(username).matches()) {
            throw new IllegalArgumentException("a Kafka user name must be non-empty, without spaces, quotes or backslashes");
        }
        if (password == null || !SAFE.matcher(password).matches()) {
            throw new IllegalArgumentException("the Kafka password of " + username + " must be non-empty, without spaces, quotes or backslashes");
        }
    }

    /** The credential whose password is the first line of {@code passwordFile}. */
    public static KafkaCredential fromPasswordFile(String username, Path passwordFile) {
        return new KafkaCredential(username, SecretFiles.firstLine(passwordFile, "the Kafka password file"));
    }

    /** Properties any Kafka client (producer, consumer, admin) adds to log in with this credential over plaintext. */
    public Map<String, Object> clientProperties() {
        return clientProperties(Optional.empty());
    }

    /** The same, over TLS checked against {@code trust} when there is one. */
    public Map<String, Object> clientProperties(Optional<KafkaTrust> trust) {
        Map<String, Object> properties = new HashMap<>(Map.of("security.protocol", trust.isPresent() ? "SASL_SSL" : "SASL_PLAINTEXT",
                "sasl.mechanism", MECHANISM,
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + username
                        + "\" password=\"" + password + "\";"));
        trust.ifPresent(t -> properties.putAll(t.clientProperties()));
        return Map.copyOf(properties);
    }

    @Override
    public String toString() {
        return "KafkaCredential[" + username + "]";
    }
}
