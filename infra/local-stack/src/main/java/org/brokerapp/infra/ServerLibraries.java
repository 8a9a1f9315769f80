package org.brokerapp.infra;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The server classpaths the build copied from Maven Central ({@code infra/servers/*}): kept apart
 * from the application's classpath, since Cassandra, Kafka and Spring Boot want different netty,
 * jackson and logging versions.
 */
record ServerLibraries(Path cassandra, Path kafka, Path elasticsearch, Path jmxExporter, Path monitoring) {

    static ServerLibraries fromBuild() {
        Properties p = new Properties();
        try (InputStream in = ServerLibraries.class.getResourceAsStream("/local-stack.properties")) {
            if (in == null) {
                throw new StackException("local-stack.properties is missing: build with ./mvnw -pl infra/local-stack -am install");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ServerLibraries(Path.of(p.getProperty("cassandra.lib")), Path.of(p.getProperty("kafka.lib")),
                Path.of(p.getProperty("elasticsearch.target")), Path.of(p.getProperty("jmx-exporter.lib")),
                Path.of(p.getProperty("monitoring.dir")).normalize());
    }

    void requirePresent() {
        require(cassandra, "cassandra-all");
        require(kafka, "kafka_2.13");
    }

    void requireElasticsearchPresent() {
        require(elasticsearchLib(), "elasticsearch-8");
        require(elasticsearchHome().resolve("modules/transport-netty4"), "transport-netty4");
        require(elasticsearchHome().resolve("modules/root-info"), "root-info");
    }

    /** The Elasticsearch server's classpath, the launcher jar included. */
    Path elasticsearchLib() {
        return elasticsearch.resolve("lib");
    }

    /** {@code es.path.home}: holds {@code modules/} as the build laid it out (shared by every node; nothing is written there but an empty {@code plugins/}). */
    Path elasticsearchHome() {
        return elasticsearch.resolve("home");
    }

    /** The Prometheus JMX exporter agent, attached to every server when the stack runs with metrics. */
    Path jmxExporterAgent() {
        require(jmxExporter, "jmx_prometheus_javaagent");
        try (var files = Files.list(jmxExporter)) {
            return files.filter(f -> f.getFileName().toString().startsWith("jmx_prometheus_javaagent")).findFirst().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code -javaagent:} option exporting a server's MBeans on {@code address:port} by the rules in {@code infra/monitoring/jmx/<rules>.yml}. */
    String jmxExporterOption(String address, int port, String rules) {
        return "-javaagent:" + jmxExporterAgent() + "=" + address + ":" + port + ":" + monitoring.resolve("jmx").resolve(rules + ".yml");
    }

    Path jammAgent() {
        try (var files = Files.list(cassandra)) {
            return files.filter(f -> f.getFileName().toString().startsWith("jamm-")).findFirst()
                    .orElseThrow(() -> new StackException("jamm agent jar missing from " + cassandra));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void require(Path dir, String jarPrefix) {
        boolean present;
        try (var files = Files.list(dir)) {
            present = files.anyMatch(f -> f.getFileName().toString().startsWith(jarPrefix));
        } catch (IOException e) {
            present = false;
        }
        if (!present) {
            throw new StackException(jarPrefix + " jars not found in " + dir + ": build them with ./mvnw -q -pl infra/local-stack -am install -DskipTests");
        }
    }
}
