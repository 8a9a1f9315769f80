package org.brokerapp.infra.host;

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
public record ServerLibraries(Path cassandra, Path kafka, Path elasticsearch, Path jmxExporter, Path monitoring) {

    /** Where the images built from these jars keep them (see infra/images), under the same file names. */
    public static final Path IMAGE_CASSANDRA_LIB = Path.of("/opt/cassandra/lib");
    public static final Path IMAGE_KAFKA_LIB = Path.of("/opt/kafka/lib");
    public static final Path IMAGE_ELASTICSEARCH_LIB = Path.of("/opt/elasticsearch/lib");
    public static final Path IMAGE_ELASTICSEARCH_HOME = Path.of("/opt/elasticsearch/home");

    public static ServerLibraries fromBuild() {
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

    public void requirePresent() {
        require(cassandra, "cassandra-all");
        require(kafka, "kafka_2.13");
    }

    public void requireElasticsearchPresent() {
        require(elasticsearchLib(), "elasticsearch-8");
        require(elasticsearchHome().resolve("modules/transport-netty4"), "transport-netty4");
        require(elasticsearchHome().resolve("modules/root-info"), "root-info");
        require(elasticsearchHome().resolve("modules/login"), "login");
    }

    /** The Elasticsearch server's classpath, the launcher jar included. */
    public Path elasticsearchLib() {
        return elasticsearch.resolve("lib");
    }

    /** {@code es.path.home}: holds {@code modules/} as the build laid it out (shared by every node; nothing is written there but an empty {@code plugins/}). */
    public Path elasticsearchHome() {
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

    /** The server versions, from the jar names: the images built from these jars are tagged with them. */
    public String cassandraVersion() {
        return versionOf(cassandra, "cassandra-all-");
    }

    public String kafkaVersion() {
        return versionOf(kafka, "kafka_2.13-");
    }

    public String elasticsearchVersion() {
        return versionOf(elasticsearchLib(), "elasticsearch-");
    }

    /** The version in {@code <jarPrefix><version>.jar}, a version starting with a digit (not {@code elasticsearch-x-content-...}). */
    private static String versionOf(Path dir, String jarPrefix) {
        try (var files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.matches(java.util.regex.Pattern.quote(jarPrefix) + "[0-9][^-]*\\.jar"))
                    .map(f -> f.substring(jarPrefix.length(), f.length() - ".jar".length())).findFirst()
                    .orElseThrow(() -> new StackException(jarPrefix + "*.jar missing from " + dir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code -javaagent:} option exporting a server's MBeans on {@code address:port} by the rules in {@code infra/monitoring/jmx/<rules>.yml}. */
    public String jmxExporterOption(String address, int port, String rules) {
        return "-javaagent:" + jmxExporterAgent() + "=" + address + ":" + port + ":" + monitoring.resolve("jmx").resolve(rules + ".yml");
    }

    public Path jammAgent() {
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
