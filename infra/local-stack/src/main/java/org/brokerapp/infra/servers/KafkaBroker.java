package org.brokerapp.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apache.kafka.common.Uuid;
import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.ClassDataArchive;
import org.brokerapp.infra.host.LeanJvm;
import org.brokerapp.infra.host.ServerLibraries;
import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.host.StackFiles;
import org.brokerapp.infra.tls.StackTls;
import org.brokerapp.regions.KafkaCredential;
import org.brokerapp.regions.Region;

/**
 * One Kafka 4 broker for one region: KRaft, broker and controller in one JVM, replication factor
 * 1 everywhere. Each region has its own, as in production: tickers are regional. Clients log in
 * with SCRAM-SHA-512 over {@code SASL_PLAINTEXT}, or {@code SASL_SSL} when the stack runs with TLS,
 * and may do only what {@link KafkaAccess} grants;
 * the SCRAM credentials of the region's principals are written at format time, so the broker
 * knows them from its first start.
 *
 * @param region  the region it serves
 * @param address the loopback address it binds (port 9092, controller 9093)
 * @param dir     configuration, data and logs
 */
public record KafkaBroker(Region region, String address, Path dir) {

    public static final String READY_MARKER = "Kafka Server started";
    public static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    public String name() {
        return "kafka " + region.name();
    }

    public String bootstrapServers() {
        return address + ":" + AddressPlan.KAFKA_PORT;
    }

    /** The name of this broker's keystore when the stack runs with TLS. */
    public String tlsName() {
        return "kafka-" + region.name();
    }

    public Path serverLog() {
        return dir.resolve("logs/server.log");
    }

    /**
     * Starts the broker; with {@code metrics} its MBeans are served to Prometheus on {@code address:9404}, with
     * {@code tls} its clients' listener speaks TLS only. Data formatted with other credentials (passwords generated
     * anew) is formatted again.
     */
    public ServerProcess start(Path java, ServerLibraries libs, boolean metrics, KafkaCredentials credentials, Optional<StackTls> tls,
                        boolean mayRecordClasses) {
        writeConfiguration(credentials.of(KafkaAccess.ADMIN).password(), tls);
        if (credentials.created()) {
            StackFiles.deleteTree(dir.resolve("data"));
        }
        if (!Files.exists(dir.resolve("data/meta.properties"))) {
            ClassDataArchive classes = classDataArchive(java, libs, "kafka-storage-tool", false);
            Optional<ClassDataArchive> recording = classes.toRecord(mayRecordClasses);
            List<String> format = command(java, libs, "kafka.tools.StorageTool", classes.options(recording.isPresent()));
            format.addAll(formatArguments(properties(), credentials));
            // 180 s: beside the Cassandra seeds on a saturated 2-core host the tool took over 60 s (CI, 2026-12-02)
            ServerProcess.runToCompletion(name() + " storage format", format, dir.resolve("logs/format.log"), Duration.ofSeconds(180), recording);
        }
        return launch(java, libs, metrics, mayRecordClasses);
    }

    /** Starts the broker again on the data and configuration it had (after a crash): nothing formatted, nothing rewritten. */
    public ServerProcess restart(Path java, ServerLibraries libs, boolean metrics) {
        return launch(java, libs, metrics, false);
    }

    /** Maps the stack's class data archive for Kafka ({@link ClassDataArchive}); records it as it stops when it may and there is none. */
    private ServerProcess launch(Path java, ServerLibraries libs, boolean metrics, boolean mayRecordClasses) {
        ClassDataArchive classes = classDataArchive(java, libs, "kafka", metrics);
        Optional<ClassDataArchive> recording = classes.toRecord(mayRecordClasses);
        List<String> command = command(java, libs, "kafka.Kafka", classes.options(recording.isPresent()));
        if (metrics) {
            command.add(1, libs.jmxExporterOption(address, AddressPlan.JMX_EXPORTER_PORT, "kafka"));
        }
        command.add(properties().toString());
        return ServerProcess.start(name(), command, dir.resolve("logs/console.log"), recording);
    }

    private static ClassDataArchive classDataArchive(Path java, ServerLibraries libs, String kind, boolean metrics) {
        return ClassDataArchive.besideLibraries(libs.kafka(), kind, java, List.of("metrics=" + metrics));
    }

    /** The storage tool's format arguments: a new cluster id, and the SCRAM credentials of every principal of the region. */
    private List<String> formatArguments(Path properties, KafkaCredentials credentials) {
        List<String> arguments = new ArrayList<>(List.of("format", "-t", Uuid.randomUuid().toString(), "-c", properties.toString(), "--standalone"));
        for (String principal : KafkaAccess.principals(region.name())) {
            arguments.addAll(List.of("--add-scram", KafkaCredential.MECHANISM + "=[name=" + principal + ",password=" + credentials.of(principal).password() + "]"));
        }
        return arguments;
    }

    /**
     * The same broker as a container's command ({@code ContainerStack}): its files under {@code home} inside the
     * container, storage formatted on first start with the SCRAM credentials of the region's principals (as for a
     * process: the passwords the stack's {@link KafkaCredentials} files hold), then the broker in the foreground.
     */
    public List<String> containerCommand(Path home, KafkaCredentials credentials) {
        Path java = Path.of("java");
        Path lib = ServerLibraries.IMAGE_KAFKA_LIB;
        List<String> format = command(java, lib, home, "kafka.tools.StorageTool");
        format.addAll(formatArguments(home.resolve("conf/server.properties"), credentials));
        List<String> run = command(java, lib, home, "kafka.Kafka");
        run.add(home.resolve("conf/server.properties").toString());
        return List.of("/bin/sh", "-c", "test -f " + home.resolve("data/meta.properties") + " || " + quoted(format)
                + " && exec " + quoted(run));
    }

    private static String quoted(List<String> words) {
        return words.stream().map(w -> "'" + w + "'").collect(Collectors.joining(" "));
    }

    /**
     * The configuration files of the broker in a container, by their path there: the same logins and ACLs as a
     * process, its SCRAM listener bound on every interface and announcing {@code address} (where its port is published
     * on this machine) to clients, its controller (PLAIN, the admin's login) kept to itself on the container's
     * localhost, and logging to the console (the container's log).
     */
    public Map<Path, String> containerFiles(Path home, String adminPassword) {
        String controller = "localhost:" + AddressPlan.KAFKA_CONTROLLER_PORT;
        return Map.of(
                home.resolve("conf/server.properties"), serverProperties("0.0.0.0:" + AddressPlan.KAFKA_PORT, controller, home.resolve("data"), adminPassword,
                        Optional.empty()),
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

    private List<String> command(Path java, ServerLibraries libs, String mainClass, List<String> classDataOptions) {
        List<String> command = command(java, libs.kafka(), dir, mainClass);
        command.addAll(1, classDataOptions);
        return command;
    }

    private static List<String> command(Path java, Path lib, Path home, String mainClass) {
        List<String> command = new ArrayList<>(List.of(java.toString(),
                // lean on a small machine (issue #11)
                "-Xms256m", "-Xmx384m", // a few topics of small records; the log cleaner's buffer is cut to 16 MB below
                "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20"));
        command.addAll(LeanJvm.SHARED_CORES);
        command.add(LeanJvm.COMPILE_AT_TENS_A_SECOND);
        command.addAll(List.of("-Djava.awt.headless=true", "-Djava.net.preferIPv4Stack=true",
                "-Dlog4j2.configurationFile=" + home.resolve("conf/log4j2.properties"),
                "-Dkafka.logs.dir=" + home.resolve("logs"),
                "-cp", lib + "/*", mainClass));
        return command;
    }

    private Path properties() {
        return dir.resolve("conf/server.properties");
    }

    void writeConfiguration(String adminPassword, Optional<StackTls> tls) {
        try {
            Files.createDirectories(dir.resolve("conf"));
            Files.createDirectories(dir.resolve("logs"));
            Files.deleteIfExists(properties());
            // it holds the admin password
            Files.createFile(properties(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(properties(), serverProperties(adminPassword, tls));
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

    public String serverProperties(String adminPassword, Optional<StackTls> tls) {
        return serverProperties(bootstrapServers(), address + ":" + AddressPlan.KAFKA_CONTROLLER_PORT, dir.resolve("data"), adminPassword, tls);
    }

    /**
     * Clients are always told {@link #bootstrapServers()}; {@code listen} is where the broker binds for them. With
     * {@code tls} the clients' listener (the broker's own inter-broker requests too) is {@code SASL_SSL} with a
     * certificate for its address; the controller's stays on loopback, in plaintext, as its PLAIN login.
     */
    private String serverProperties(String listen, String controller, Path dataDir, String adminPassword, Optional<StackTls> tls) {
        return tls.map(this::tlsProperties).orElse("") + """
                process.roles=broker,controller
                node.id=1
                controller.quorum.bootstrap.servers=%s
                listeners=CLIENT://%s,CONTROLLER://%s
                advertised.listeners=CLIENT://%s,CONTROLLER://%s
                inter.broker.listener.name=CLIENT
                controller.listener.names=CONTROLLER
                listener.security.protocol.map=CONTROLLER:SASL_PLAINTEXT,CLIENT:%s
                # Clients (and the broker itself) log in with SCRAM; its credentials live in the cluster metadata
                sasl.enabled.mechanisms=SCRAM-SHA-512
                sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
                listener.name.client.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="%s" password="%s";
                # The controller listener cannot use SCRAM (the credentials live in the metadata it serves): PLAIN, whose
                # one user is in this file. Left PLAINTEXT, the broker's own controller requests would come as ANONYMOUS,
                # which would then have to be a super user: anyone on the machine could create ACLs on this port.
                sasl.mechanism.controller.protocol=PLAIN
                listener.name.controller.sasl.enabled.mechanisms=PLAIN
                listener.name.controller.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="%s" password="%s" user_%s="%s";
                authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
                allow.everyone.if.no.acl.found=false
                super.users=User:%s
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
                """.formatted(controller, listen, controller, bootstrapServers(), controller, tls.isPresent() ? "SASL_SSL" : "SASL_PLAINTEXT",
                KafkaAccess.ADMIN, adminPassword,
                KafkaAccess.ADMIN, adminPassword, KafkaAccess.ADMIN, adminPassword, KafkaAccess.ADMIN, dataDir);
    }

    /** The certificate it serves clients and the CA it checks itself against (as its own inter-broker client). */
    private String tlsProperties(StackTls tls) {
        return """
                ssl.keystore.location=%s
                ssl.keystore.type=PKCS12
                ssl.keystore.password=%s
                ssl.key.password=%s
                ssl.truststore.location=%s
                ssl.truststore.type=PKCS12
                ssl.truststore.password=%s
                ssl.client.auth=none
                """.formatted(tls.keystore(tlsName()), tls.password(), tls.password(), tls.truststore(), tls.password());
    }
}
