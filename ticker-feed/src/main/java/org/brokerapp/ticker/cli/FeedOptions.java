package org.brokerapp.ticker.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What both commands share: which regions, their Kafka addresses, the topic and how to report.
 *
 * @param regions     region names, in the order given
 * @param bootstrap   bootstrap servers of each region
 * @param progress    interval of the progress lines, zero for none
 * @param regionsFile the regions model, else the default ({@code REGIONS_FILE} or the packaged one)
 * @param symbolsFile the symbol universe, else the packaged one
 * @param failover    exchange to the region that adopted it, whose Kafka gets its ticks instead of its home's; in the order given
 * @param kafkaLogin  the Kafka principal the feed logs in as and the file holding its password (SCRAM-SHA-512), and over
 *                    TLS the truststore to check the Kafka against; empty: no login
 */
public record FeedOptions(List<String> regions, Map<String, String> bootstrap, String topic, int partitions, String compression,
                          Duration kafkaTimeout, Duration progress, Optional<Path> regionsFile, Optional<Path> symbolsFile,
                          Map<String, String> failover, Optional<KafkaLogin> kafkaLogin) {

    /**
     * A principal and where its password is, and for a Kafka that speaks TLS a PKCS12 truststore and the file holding
     * its password: read when the feed starts, so a usage check needs no file.
     */
    public record KafkaLogin(String user, Path passwordFile, Optional<Truststore> truststore) {

        public KafkaLogin(String user, Path passwordFile) {
            this(user, passwordFile, Optional.empty());
        }
    }

    /**
     * What the feed trusts: a PKCS12 store and the file holding its password, or (no password file) a PEM file of CA
     * certificates, such as Terraform's data CA.
     */
    public record Truststore(Path store, Optional<Path> passwordFile) {

        public Truststore(Path store, Path passwordFile) {
            this(store, Optional.of(passwordFile));
        }

        /** A PEM file of CA certificates. */
        public static Truststore pem(Path file) {
            return new Truststore(file, Optional.empty());
        }
    }

    public FeedOptions {
        regions = List.copyOf(regions);
        bootstrap = Map.copyOf(bootstrap);
        failover = Collections.unmodifiableMap(new LinkedHashMap<>(failover));
    }
}
