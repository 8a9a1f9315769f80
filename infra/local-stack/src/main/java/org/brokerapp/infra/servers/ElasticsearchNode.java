package org.brokerapp.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.LeanJvm;
import org.brokerapp.infra.host.ServerLibraries;
import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.regions.Region;

/**
 * One Elasticsearch 8.19 node for one region: a single-node cluster of its own, as each region
 * indexes what its own broker decided (a customer's search fans out to every region). Started
 * from Maven Central jars by {@code org.brokerapp.infra.elasticsearch.ElasticsearchLauncher}
 * ({@code infra/servers/elasticsearch}), not from the distribution.
 *
 * @param region  the region it serves
 * @param address the loopback address it binds (HTTP 9200, transport 9300)
 * @param dir     configuration, data and logs
 * @param heapMb  JVM heap
 * @param workDir the stack's work directory, where its logins are ({@link SearchLogins}): every request needs one
 */
public record ElasticsearchNode(Region region, String address, Path dir, int heapMb, Path workDir) {

    /** 180 s by default (JIT-cold on 2 busy cores it took 35 s); {@code -Dstack.start-timeout-seconds} raises it. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(Math.max(180, Long.getLong("stack.start-timeout-seconds", 180)));

    public String name() {
        return "elasticsearch " + region.name();
    }

    public String url() {
        return "http://" + address + ":" + AddressPlan.ELASTICSEARCH_HTTP_PORT;
    }

    public String clusterName() {
        return "brokerapp-" + region.name();
    }

    /** The stack's logins for this node (generated with the stack's first start). */
    public SearchLogins logins() {
        return SearchLogins.loadOrCreate(workDir);
    }

    public Path serverLog() {
        return dir.resolve("logs/" + clusterName() + ".log");
    }

    public static final String LAUNCHER = "org.brokerapp.infra.elasticsearch.ElasticsearchLauncher";

    public ServerProcess start(Path java, ServerLibraries libs) {
        writeConfiguration();
        List<String> command = new ArrayList<>(List.of(java.toString()));
        command.addAll(jvmOptions(libs.elasticsearchHome(), libs.elasticsearchLib()));
        command.add(dir.resolve("config").toString());
        return ServerProcess.start(name(), command, dir.resolve("logs/console.log"));
    }

    /** The same node as a container's command ({@code ContainerStack}): its files under {@code home} inside the container. */
    public List<String> containerCommand(Path home) {
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(jvmOptions(ServerLibraries.IMAGE_ELASTICSEARCH_HOME, ServerLibraries.IMAGE_ELASTICSEARCH_LIB));
        command.add(home.resolve("config").toString());
        return command;
    }

    /**
     * The configuration files of the node in a container, by their path there: it binds every interface (its HTTP port
     * is published on this machine at {@link #address()}) and logs to the console (the container's log).
     */
    public Map<Path, String> containerFiles(Path home) {
        return Map.of(
                home.resolve("config/elasticsearch.yml"), configuration("0.0.0.0", home.resolve("data"), home.resolve("logs")),
                // not named "console": the launcher's LogConfigurator.configure(env, false) removes that one; direct, as
                // Elasticsearch sends System.out to a logger
                home.resolve("config/log4j2.properties"), """
                        status = error
                        appender.out.type = Console
                        appender.out.name = out
                        appender.out.direct = true
                        appender.out.layout.type = PatternLayout
                        appender.out.layout.pattern = [%d{ISO8601}][%-5p][%-25c{1.}] [%node_name]%marker %m%n
                        rootLogger.level = info
                        rootLogger.appenderRef.out.ref = out
                        logger.deprecation.name = org.elasticsearch.deprecation
                        logger.deprecation.level = error
                        """);
    }

    private List<String> jvmOptions(Path esHome, Path lib) {
        return Stream.of(List.of("-Xms" + heapMb + "m", "-Xmx" + heapMb + "m", "-XX:+UseG1GC"), LeanJvm.SHARED_CORES, List.of(
                "-Xss1m", "-Djava.awt.headless=true", "-Djava.net.preferIPv4Stack=true", "-Dfile.encoding=UTF-8",
                "-Dlog4j2.formatMsgNoLookups=true", "-Dlog4j.shutdownHookEnabled=false", "-Dlog4j2.disable.jmx=true",
                "-Des.path.home=" + esHome,
                "-cp", lib + "/*",
                LAUNCHER)).flatMap(List::stream).toList();
    }

    /** Ready = the HTTP layer answers and the cluster is at least yellow (a single node never gets replicas: green). */
    public void awaitReady(ServerProcess process) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        process.awaitReady(() -> clusterAnswers(http), "cluster health yellow or green at " + url(), START_TIMEOUT);
    }

    /** Ready as {@link #awaitReady(ServerProcess)} asks it, once: for a node whose process is not on this machine (a container). */
    public boolean answers() {
        return clusterAnswers(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build());
    }

    private boolean clusterAnswers(HttpClient http) {
        try {
            HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(url() + "/_cluster/health?wait_for_status=yellow&timeout=1s"))
                    .header("Authorization", logins().authorization(SearchLogins.ADMIN))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return health.statusCode() == 200 && health.body().matches("(?s).*\"status\"\\s*:\\s*\"(green|yellow)\".*");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("interrupted");
        }
    }

    public void writeConfiguration() {
        try {
            Files.createDirectories(dir.resolve("config"));
            Files.createDirectories(dir.resolve("data"));
            Files.createDirectories(dir.resolve("logs"));
            Files.writeString(dir.resolve("config/elasticsearch.yml"), configuration());
            Files.writeString(dir.resolve("config/log4j2.properties"), """
                    status = error
                    appender.file.type = File
                    appender.file.name = file
                    appender.file.fileName = %s
                    appender.file.layout.type = PatternLayout
                    appender.file.layout.pattern = [%%d{ISO8601}][%%-5p][%%-25c{1.}] [%%node_name]%%marker %%m%%n
                    rootLogger.level = info
                    rootLogger.appenderRef.file.ref = file
                    logger.deprecation.name = org.elasticsearch.deprecation
                    logger.deprecation.level = error
                    """.formatted(serverLog()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Single node, loopback only (so no production bootstrap checks), no disk watermarks (a
     * developer's disk may be nearly full), master and data roles only (no ML, no transforms:
     * their x-pack modules are not on Maven Central anyway). Index creation is left to the
     * application's templates: {@code action.auto_create_index} only for their patterns. Every
     * request needs a login: the {@code login} module's HTTP transport checks it ({@link SearchLogins}).
     */
    String configuration() {
        return configuration(address, dir.resolve("data"), dir.resolve("logs"));
    }

    private String configuration(String host, Path data, Path logs) {
        return """
                cluster.name: %s
                node.name: es-%s
                node.roles: [ master, data ]
                network.host: %s
                http.port: %d
                transport.port: %d
                discovery.type: single-node
                path.data: %s
                path.logs: %s
                cluster.routing.allocation.disk.threshold_enabled: false
                action.auto_create_index: "+orders-v*,+trades-v*,-*"
                action.destructive_requires_name: true
                http.type: brokerapp-login
                brokerapp.login.users: [ %s ]
                """.formatted(clusterName(), region.name(), host, AddressPlan.ELASTICSEARCH_HTTP_PORT,
                AddressPlan.ELASTICSEARCH_TRANSPORT_PORT, data, logs,
                String.join(", ", logins().nodeSetting().stream().map(entry -> "\"" + entry + "\"").toList()));
    }
}
