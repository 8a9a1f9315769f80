package org.brokerapp.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.kafka.common.Uuid;
import org.brokerapp.regions.Region;

/**
 * One Kafka 4 broker for one region: KRaft, broker and controller in one JVM, replication factor
 * 1 everywhere. Each region has its own, as in production: tickers are regional.
 *
 * @param region  the region it serves
 * @param address the loopback address it binds (port 9092, controller 9093)
 * @param dir     configuration, data and logs
 */
public record KafkaBroker(Region region, String address, Path dir) {

    static final String READY_MARKER = "Kafka Server started";
    static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    public String name() {
        return "kafka " + region.name();
    }

    public String bootstrapServers() {
        return address + ":" + AddressPlan.KAFKA_PORT;
    }

    public Path serverLog() {
        return dir.resolve("logs/server.log");
    }

    /** Starts the broker; with {@code metrics} its MBeans are served to Prometheus on {@code address:9404}. */
    ServerProcess start(Path java, ServerLibraries libs, boolean metrics) {
        writeConfiguration();
        if (!Files.exists(dir.resolve("data/meta.properties"))) {
            List<String> format = command(java, libs, "kafka.tools.StorageTool");
            format.addAll(List.of("format", "-t", Uuid.randomUuid().toString(), "-c", properties().toString(), "--standalone"));
            ServerProcess.runToCompletion(name() + " storage format", format, dir.resolve("logs/format.log"), Duration.ofSeconds(60));
        }
        List<String> command = command(java, libs, "kafka.Kafka");
        if (metrics) {
            command.add(1, libs.jmxExporterOption(address, AddressPlan.JMX_EXPORTER_PORT, "kafka"));
        }
        command.add(properties().toString());
        return ServerProcess.start(name(), command, dir.resolve("logs/console.log"));
    }

    /**
     * The same broker as a container's command ({@link ContainerStack}): its files under {@code home} inside the
     * container, storage formatted on first start, then the broker in the foreground.
     */
    List<String> containerCommand(Path home) {
        Path java = Path.of("java");
        Path lib = ServerLibraries.IMAGE_KAFKA_LIB;
        List<String> format = command(java, lib, home, "kafka.tools.StorageTool");
        format.addAll(List.of("format", "-t", Uuid.randomUuid().toString(), "-c", home.resolve("conf/server.properties").toString(), "--standalone"));
        List<String> run = command(java, lib, home, "kafka.Kafka");
        run.add(home.resolve("conf/server.properties").toString());
        return List.of("/bin/sh", "-c", "test -f " + home.resolve("data/meta.properties") + " || " + quoted(format)
                + " && exec " + quoted(run));
    }

    private static String quoted(List<String> words) {
        return words.stream().map(w -> "'" + w + "'").collect(Collectors.joining(" "));
    }

    /**
     * The configuration files of the broker in a container, by their path there: it binds every interface, announces
     * {@code address} (where its port is published on this machine) to clients, keeps its controller to itself and
     * logs to the console (the container's log).
     */
    Map<Path, String> containerFiles(Path home) {
        String controller = "localhost:" + AddressPlan.KAFKA_CONTROLLER_PORT;
        return Map.of(
                home.resolve("conf/server.properties"), serverProperties("0.0.0.0:" + AddressPlan.KAFKA_PORT, controller, home.resolve("data")),
                home.resolve("conf/log4j2.properties"), """
                        status = warn
                        appender.console.type = Console
                        appender.console.name = console
                        appender.console.layout.type = PatternLayout
                        appender.console.layout.pattern = [%d] %p %m (%c)%n
                        rootLogger.level = INFO
                        rootLogger.appenderRef.console.ref = console
                        """);
    }

    private List<String> command(Path java, ServerLibraries libs, String mainClass) {
        return command(java, libs.kafka(), dir, mainClass);
    }

    private static List<String> command(Path java, Path lib, Path home, String mainClass) {
        return new ArrayList<>(List.of(java.toString(),
                // lean on a small machine (issue #11)
                "-Xms256m", "-Xmx384m", // a few topics of small records; the log cleaner's buffer is cut to 16 MB below
                "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
                "-XX:ParallelGCThreads=2", "-XX:ConcGCThreads=1", // never more GC threads than the machine's 2 cores
                "-XX:CICompilerCount=2", // the fewest JIT threads tiered compilation allows
                "-Djava.awt.headless=true", "-Djava.net.preferIPv4Stack=true",
                "-Dlog4j2.configurationFile=" + home.resolve("conf/log4j2.properties"),
                "-Dkafka.logs.dir=" + home.resolve("logs"),
                "-cp", lib + "/*", mainClass));
    }

    private Path properties() {
        return dir.resolve("conf/server.properties");
    }

    void writeConfiguration() {
        try {
            Files.createDirectories(dir.resolve("conf"));
            Files.createDirectories(dir.resolve("logs"));
            Files.writeString(properties(), serverProperties());
            Files.writeString(dir.resolve("conf/log4j2.properties"), """
                    status = warn
                    appender.file.type = File
                    appender.file.name = file
                    appender.file.fileName = %s
                    appender.file.layout.type = PatternLayout
                    appender.file.layout.pattern = [%%d] %%p %%m (%%c)%%n
                    rootLogger.level = INFO
                    rootLogger.appenderRef.file.ref = file
                    """.formatted(serverLog()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String serverProperties() {
        return serverProperties(bootstrapServers(), address + ":" + AddressPlan.KAFKA_CONTROLLER_PORT, dir.resolve("data"));
    }

    /** Clients are always told {@link #bootstrapServers()}; {@code listen} is where the broker binds for them. */
    private String serverProperties(String listen, String controller, Path dataDir) {
        return """
                process.roles=broker,controller
                node.id=1
                controller.quorum.bootstrap.servers=%s
                listeners=PLAINTEXT://%s,CONTROLLER://%s
                advertised.listeners=PLAINTEXT://%s,CONTROLLER://%s
                inter.broker.listener.name=PLAINTEXT
                controller.listener.names=CONTROLLER
                listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
                log.dirs=%s
                num.partitions=6
                offsets.topic.replication.factor=1
                offsets.topic.num.partitions=6
                transaction.state.log.replication.factor=1
                transaction.state.log.min.isr=1
                transaction.state.log.num.partitions=4
                share.coordinator.state.topic.replication.factor=1
                share.coordinator.state.topic.min.isr=1
                group.initial.rebalance.delay.ms=0
                # Lean on a small machine (issue #11): a broker per region sharing 2 cores with 4 Cassandra nodes
                # network threads: a few clients per region (default 3)
                num.network.threads=2
                # request handler threads: each wakes every 300 ms when idle (default 8)
                num.io.threads=2
                # background tasks (log deletion, offsets expiry) are rare here (default 10)
                background.threads=2
                # one thread to load and one to recover the single log directory at start-up
                num.recovery.threads.per.data.dir=1
                # the log cleaner compacts __consumer_offsets only: one thread, a small buffer (default 128 MB of heap)
                log.cleaner.threads=1
                log.cleaner.dedupe.buffer.size=16777216
                """.formatted(controller, listen, controller, bootstrapServers(), controller, dataDir);
    }
}
