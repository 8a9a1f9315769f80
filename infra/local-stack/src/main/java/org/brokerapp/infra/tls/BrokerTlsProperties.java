package org.brokerapp.infra.tls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.brokerapp.regions.CqlLogin;

/**
 * The broker-service settings that run a broker on a TLS stack: HTTPS with its certificate
 * ({@code server.ssl.bundle}), CQL over TLS ({@code spring.cassandra.ssl}) and {@code https} peers, all
 * trusting the stack's CA through one Spring SSL bundle of the stack's PKCS12 stores, and Kafka over
 * {@code SASL_SSL}, whose client reads the same truststore by its path ({@code broker.kafka.truststore}). One place for
 * everything that starts brokers: the broker-service tests, the load harness, and a file per region
 * for brokers started by hand ({@code --spring.config.import=file:<file>}).
 */
public final class BrokerTlsProperties {

    /** The Spring SSL bundle's name. */
    public static final String BUNDLE = "local-stack";

    private BrokerTlsProperties() {
    }

    /** As {@code key -> value}, for command-line {@code --key=value} arguments or properties. */
    public static Map<String, String> of(StackTls tls, Path keystore, CqlLogin cql) {
        String prefix = "spring.ssl.bundle.jks." + BUNDLE + ".";
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(prefix + "keystore.location", keystore.toUri().toString());
        properties.put(prefix + "keystore.password", tls.password());
        properties.put(prefix + "keystore.type", "PKCS12");
        properties.put(prefix + "truststore.location", tls.truststore().toUri().toString());
        properties.put(prefix + "truststore.password", tls.password());
        properties.put(prefix + "truststore.type", "PKCS12");
        properties.put("server.ssl.bundle", BUNDLE);
        properties.put("spring.cassandra.ssl.enabled", "true");
        properties.put("spring.cassandra.ssl.bundle", BUNDLE);
        properties.put("spring.cassandra.username", cql.role());
        properties.put("spring.cassandra.password", cql.password());
        properties.put("broker.routing.ssl-bundle", BUNDLE);
        properties.put("broker.kafka.truststore", tls.truststore().toString());
        properties.put("broker.kafka.truststore-password", tls.password());
        return properties;
    }

    /** Writes settings as a properties file that Spring Boot imports; readable by its owner only (it holds passwords). */
    public static void write(Path file, Map<String, String> settings) {
        Properties properties = new Properties();
        properties.putAll(settings);
        try {
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (Writer out = Files.newBufferedWriter(file)) {
                properties.store(out, "a broker on the local stack's TLS: --spring.config.import=file:" + file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
