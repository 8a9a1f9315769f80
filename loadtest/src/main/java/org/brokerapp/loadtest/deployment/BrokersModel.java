package org.brokerapp.loadtest.deployment;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;

/**
 * The regions model the harness's brokers read ({@code --broker.regions-file}): the stack's own, so
 * that the brokers' keyspace gets the replication the stack was sized for. Without it a broker reads
 * the model packaged in its jar, and a stack started with {@code --nodes-per-dc 3} or another
 * {@code --regions} file would run the brokers' keyspace at the packaged model's RF.
 */
final class BrokersModel {

    private BrokersModel() {
    }

    /** Writes the model to {@code target}: the given file (or the packaged one), at {@code nodesPerDc} when set; checked against {@code stack}. */
    static Path write(Optional<Path> regionsFile, OptionalInt nodesPerDc, RegionsModel stack, Path target) {
        try {
            String yaml = regionsFile.isPresent() ? Files.readString(regionsFile.get()) : packaged();
            if (nodesPerDc.isPresent()) {
                yaml = yaml.replaceAll("cassandra-nodes:\\s*\\d+", "cassandra-nodes: " + nodesPerDc.getAsInt());
            }
            Files.createDirectories(target.getParent());
            Files.writeString(target, yaml);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the brokers' regions model " + target, e);
        }
        RegionsModel written = RegionsFile.load(target);
        if (!written.replicationFactors().equals(stack.replicationFactors())) {
            throw new IllegalStateException("the brokers' regions model " + target + " replicates " + written.replicationFactors()
                    + ", the stack " + stack.replicationFactors());
        }
        return target.toAbsolutePath();
    }

    private static String packaged() throws IOException {
        try (InputStream in = RegionsFile.class.getResourceAsStream("/regions.yaml")) {
            if (in == null) {
                throw new IOException("regions.yaml is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
