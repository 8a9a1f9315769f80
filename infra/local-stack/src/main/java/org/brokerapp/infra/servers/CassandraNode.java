package org.brokerapp.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.ClassDataArchive;
import org.brokerapp.infra.host.LeanJvm;
import org.brokerapp.infra.host.Privileges;
import org.brokerapp.infra.host.ServerLibraries;
import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.tls.StackTls;
import org.brokerapp.regions.Region;

/**
 * One Cassandra 5.0 node: its own JVM, its own loopback address, its data center named by its
 * region. With WAN emulation on, the node announces a second address ({@code broadcast_address},
 * a proxy of the WAN emulator) to the cluster, while {@code prefer_local} keeps traffic inside
 * its own DC on the direct address: only cross-DC traffic pays the emulated latency.
 *
 * @param region     the region whose DC this node belongs to
 * @param node       1-based index of the node inside its DC
 * @param address    listen, CQL and JMX-host address
 * @param wanAddress the address other DCs reach it at (equal to {@code address} without emulation)
 * @param jmxPort    local JMX port
 * @param seeds      one node per DC, as {@code host:port}
 * @param dir        this node's configuration, data and logs
 * @param heapMb     JVM heap
 */
public record CassandraNode(Region region, int node, String address, String wanAddress, int jmxPort,
                            List<String> seeds, Path dir, int heapMb) {

    /** The nodes' login settings ({@code tls} stacks): logins checked against {@code system_auth.roles}, permissions against {@code system_auth.role_permissions}. */
    private static final String AUTH_YAML = """
            authenticator:
              class_name: org.apache.cassandra.auth.PasswordAuthenticator
            authorizer:
              class_name: org.apache.cassandra.auth.CassandraAuthorizer
            role_manager:
              class_name: org.apache.cassandra.auth.CassandraRoleManager
            """;
    /** A node creates the default superuser 10 s after it starts, to let a ring settle: a new local cluster need not wait. */
    private static final String NO_SUPERUSER_DELAY = "-Dcassandra.superuser_setup_delay_ms=0";


    public static final String READY_MARKER = "Startup complete";
    public static final String MAIN_CLASS = "org.apache.cassandra.service.CassandraDaemon";
    // 6-13 s on an idle 2-core machine; over 120 s seen when other work saturates the cores (load average 60+);
    // -Dstack.start-timeout-seconds=<seconds> (every server's start) for a machine busier still
    public static final Duration START_TIMEOUT = Duration.ofSeconds(Math.max(300, Long.getLong("stack.start-timeout-seconds", 300)));
    /**
     * The timer slack of the node's threads, in microseconds: how late the kernel may wake a thread that parks for
     * less, so that wake-ups due close together are served as one ({@link #launcher}). 1 ms; 0 keeps the kernel's
     * default (50 µs). -Dstack.cassandra-timer-slack-us=N for a comparison.
     */
    public static final long TIMER_SLACK_MICROS = Long.getLong("stack.cassandra-timer-slack-us", 1000);

    public String name() {
        return "cassandra " + region.name() + "/" + node;
    }

    public Path systemLog() {
        return dir.resolve("logs/system.log");
    }

    /** The reports of this node's JVM crashes ({@code -XX:ErrorFile}), oldest first. */
    public List<Path> crashReports() {
        try (var files = Files.list(dir.resolve("logs"))) {
            return files.filter(f -> f.getFileName().toString().startsWith("hs_err_pid"))
                    .sorted(java.util.Comparator.comparing(f -> f.toFile().lastModified())).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The name of this node's keystore when the stack runs with TLS. */
    public String tlsName() {
        return "cassandra-" + region.name() + "-" + node;
    }

    public boolean isSeed() {
        return node == 1;
    }

    /**
     * Starts the node; with {@code metrics} its MBeans are served to Prometheus on {@code address:9404}, with
     * {@code tls} it speaks CQL and to other nodes over TLS only, and takes only clients that log in (set up by the stack: {@code CassandraAuth}).
     * It maps the stack's class data archive for Cassandra ({@link ClassDataArchive}: about a third of a node's start-up
     * CPU is loading classes); with {@code mayRecordClasses} and no archive yet, it records one as it stops.
     */
    public ServerProcess start(Path java, ServerLibraries libs, boolean metrics, Optional<StackTls> tls, boolean mayRecordClasses) {
        writeConfiguration(tls);
        List<String> command = new ArrayList<>(launcher());
        command.add(java.toString());
        if (metrics) {
            command.add(libs.jmxExporterOption(address, AddressPlan.JMX_EXPORTER_PORT, "cassandra"));
        }
        ClassDataArchive classes = ClassDataArchive.besideLibraries(libs.cassandra(), "cassandra", java, List.of("metrics=" + metrics));
        Optional<ClassDataArchive> recording = classes.toRecord(mayRecordClasses);
        List<String> extra = new ArrayList<>(List.of("-Dcassandra.jmx.local.port=" + jmxPort));
        if (tls.isPresent()) {
            extra.add(NO_SUPERUSER_DELAY);
        }
        extra.addAll(classes.options(recording.isPresent()));
        command.addAll(jvmOptions(libs.cassandra(), libs.jammAgent(), dir, extra));
        command.add(MAIN_CLASS);
        return ServerProcess.start(name(), command, dir.resolve("logs/console.log"), recording);
    }

    /**
     * The same node as a container's command ({@code ContainerStack}): its files under {@code home} inside the
     * container, JMX open on {@code jmxPort} for the port published on this machine's 127.0.0.1 (RMI stubs name
     * that address too), and the memlock limit lowered as for a process.
     */
    public List<String> containerCommand(ServerLibraries libs, Path home) {
        Path imageLib = ServerLibraries.IMAGE_CASSANDRA_LIB;
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "ulimit -l 64 && exec \"$@\"", "cassandra", "java"));
        command.addAll(jvmOptions(imageLib, imageLib.resolve(libs.jammAgent().getFileName()), home, List.of(
                "-Dcassandra.jmx.remote.port=" + jmxPort,
                "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
                "-Dcom.sun.management.jmxremote.authenticate=false",
                "-Dcom.sun.management.jmxremote.ssl=false",
                "-Djava.rmi.server.hostname=127.0.0.1")));
        command.add(MAIN_CLASS);
        return command;
    }

    /**
     * The configuration files of the node in a container, by their path there: it gossips on its container network
     * address ({@code wanAddress}), serves CQL on every interface and announces {@code address}, where its CQL port is
     * published on this machine, to clients (so the driver's peer discovery hands out reachable addresses), and logs
     * to the console (the container's log).
     */
    public Map<Path, String> containerFiles(Path home) {
        return Map.of(
                home.resolve("conf/cassandra.yaml"), cassandraYaml(home, wanAddress, "0.0.0.0", Optional.of(address)),
                home.resolve("conf/cassandra-rackdc.properties"), rackDcProperties(),
                home.resolve("conf/logback.xml"), logbackXml(CONSOLE_APPENDER));
    }

    /**
     * The shell that starts the node's JVM in its own place (exec: the JVM keeps the shell's PID), having set:
     * <ul>
     * <li>the timer slack ({@link #TIMER_SLACK_MICROS}), which every thread the JVM starts inherits. A request
     * stage's worker that runs out of work keeps spinning on parks of 10-20 µs before it sleeps, so that the next
     * request finds it awake; four nodes on two cores woke up about 30,000 times a second that way at 20 orders
     * a second, and those wake-ups were most of Cassandra's CPU per order. With a slack of 1 ms the kernel
     * coalesces them (docs/benchmarks/log/2026-11-27-cassandra-timer-slack.md). Ignored where the kernel has no
     * {@code /proc/self/timerslack_ns} (before Linux 4.6);</li>
     * <li>as root, no memory locking: Cassandra's JNA mlockall pins the whole heap (~950 MB a node), so the
     * IPC_LOCK capability and the memlock limit are dropped to keep the stack laptop-sized.</li>
     * </ul>
     */
    private static List<String> launcher() {
        String slack = TIMER_SLACK_MICROS > 0 ? "{ echo " + TIMER_SLACK_MICROS * 1000 + " > /proc/self/timerslack_ns; } 2>/dev/null; " : "";
        boolean unlock = Privileges.root() && Files.isExecutable(Path.of("/usr/bin/setpriv"));
        String exec = unlock ? "ulimit -l 64 && exec /usr/bin/setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock \"$@\"" : "exec \"$@\"";
        return List.of("/bin/bash", "-c", slack + exec, "cassandra");
    }

    /** The ring delay of a node starting on its data: its shadow round then waits up to twice this for a seed's answer. */
    static final int RESTART_RING_DELAY_MS = 15_000;

    /** Whether the node under {@code home} has started before and kept its data (its system keyspace is on disk). */
    static boolean hasState(Path home) {
        return Files.isDirectory(home.resolve("data/system"));
    }

    private List<String> jvmOptions(Path lib, Path jammAgent, Path home, List<String> jmxOptions) {
        List<String> options = new ArrayList<>(List.of(
                // lean on a small machine (issue #11): each flag's reason is on its line
                "-Xms" + heapMb + "m", "-Xmx" + heapMb + "m", // fixed heap: no resizing work; 512 MB holds this stack's small memtables and caches
                "-Xss256k", // Cassandra's own default; hundreds of threads, little stack each
                "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=100",
                "-XX:+PerfDisableSharedMem", // as Cassandra's jvm-server.options: no hsperfdata mmap writes (GC stalls on a busy disk)
                "-Dcassandra.available_processors=1", // four nodes share two cores: size the pools Cassandra derives from its cores for one
                "-Dcassandra.approximate_time_precision_ms=10", // its coarse clock ticked every 2 ms: 500 wake-ups a second per node, idle (issue #11); timeouts here are seconds
                "-Dcassandra.memtable.row_overhead_size=180", // what it measures at every start otherwise, by filling a memtable: 5-9 s of a node's start on a busy machine
                "-Djava.net.preferIPv4Stack=true",
                "-Djdk.attach.allowAttachSelf=true",
                "-javaagent:" + jammAgent,
                "-Dcassandra.config=" + home.resolve("conf/cassandra.yaml").toUri(),
                "-Dcassandra-rackdc.properties=" + home.resolve("conf/cassandra-rackdc.properties").toUri(),
                "-Dlogback.configurationFile=" + home.resolve("conf/logback.xml"),
                "-Dcassandra.logdir=" + home.resolve("logs"),
                "-XX:ErrorFile=" + home.resolve("logs/hs_err_pid%p.log"), // a JVM crash's report beside the node's log, not wherever it was started
                "-Dcassandra.storagedir=" + home.resolve("data"),
                "-Dcassandra-foreground=yes",
                // an empty cluster on one machine: no need to wait for a ring to settle. A node starting again on its data
                // first asks a seed for the ring (a shadow round) and, not a seed, gives up after twice the ring delay with
                // "Unable to gossip with any peers": 2 s was too short when the whole stack starts again (StackRestartIT)
                "-Dcassandra.ring_delay_ms=" + (hasState(home) ? RESTART_RING_DELAY_MS : 1000),
                "-Dcassandra.skip_wait_for_gossip_to_settle=0",
                // Cassandra's own default (twice its default ring delay); derived from the 1-s ring delay, a node in the
                // gossip without tokens yet was evicted as a "fat client" after 1 s of silence: two DCs' seeds starting
                // together across the emulated WAN then dropped each other from their seed lists and never met again
                "-Dcassandra.gossip_quarantine_delay_ms=60000"));
        options.addAll(LeanJvm.SHARED_CORES);
        options.addAll(jmxOptions);
        options.addAll(JAVA17_MODULE_OPTIONS);
        options.add("-cp");
        options.add(lib + "/*");
        return options;
    }

    /** From Cassandra's conf/jvm17-server.options: the internals it reaches into on Java 17. */
    private static final List<String> JAVA17_MODULE_OPTIONS = List.of(
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-exports", "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
            "--add-exports", "java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports", "java.rmi/sun.rmi.server=ALL-UNNAMED",
            "--add-exports", "java.sql/java.sql=ALL-UNNAMED",
            "--add-exports", "java.base/java.lang.ref=ALL-UNNAMED",
            "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.module=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.loader=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.reflect=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.math=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.module=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.util.jar=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.io=ALL-UNNAMED",
            "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/java.util=ALL-UNNAMED",
            "--add-opens", "java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens", "java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens", "java.base/java.math=ALL-UNNAMED",
            "--add-opens", "java.base/java.net=ALL-UNNAMED");

    public void writeConfiguration(Optional<StackTls> tls) {
        try {
            for (String sub : List.of("conf", "data", "commitlog", "hints", "saved_caches", "cdc_raw", "logs")) {
                Files.createDirectories(dir.resolve(sub));
            }
            Files.writeString(dir.resolve("conf/cassandra.yaml"), cassandraYaml(dir, address, address, Optional.empty())
                    + tls.map(t -> encryptionYaml(t) + AUTH_YAML).orElse(""));
            Files.writeString(dir.resolve("conf/cassandra-rackdc.properties"), rackDcProperties());
            Files.writeString(dir.resolve("conf/logback.xml"), logbackXml(FILE_APPENDER.formatted(systemLog())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String rackDcProperties() {
        return "dc=" + region.datacenter() + "\nrack=rack1\nprefer_local=true\n";
    }

    /**
     * @param home         where the node's files are
     * @param listen       the address it binds for storage (its peers in its own DC reach it there)
     * @param rpc          the address it binds for CQL
     * @param broadcastRpc the address it tells clients to use, when not {@code rpc}
     */
    private String cassandraYaml(Path home, String listen, String rpc, Optional<String> broadcastRpc) {
        return """
                cluster_name: brokerapp-local
                num_tokens: 16
                allocate_tokens_for_local_replication_factor: %d
                partitioner: org.apache.cassandra.dht.Murmur3Partitioner
                auto_bootstrap: false
                storage_compatibility_mode: NONE
                endpoint_snitch: GossipingPropertyFileSnitch
                seed_provider:
                  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
                    parameters:
                      - seeds: "%s"
                listen_address: %s
                broadcast_address: %s
                listen_on_broadcast_address: false
                rpc_address: %s
                %sstorage_port: %d
                native_transport_port: %d
                start_native_transport: true
                data_file_directories:
                  - %s
                commitlog_directory: %s
                hints_directory: %s
                saved_caches_directory: %s
                cdc_raw_directory: %s
                commitlog_sync: periodic
                commitlog_sync_period: 10000ms
                write_request_timeout: 2000ms
                read_request_timeout: 5000ms
                # a disk that fails or fills takes the node out of the cluster (gossip and CQL stopped, JMX left for the
                # operator) instead of serving on with writes it cannot flush; the shipped cassandra.yaml's choice, not Config's default (ignore)
                disk_failure_policy: stop
                commit_failure_policy: stop
                # Lean on a small machine (issue #11): four nodes, two Kafkas and the brokers share 2 cores.
                # request stages: data sits in the page cache, so more threads than cores only queue and spin (defaults 32/32/32)
                concurrent_reads: 4
                concurrent_writes: 8
                concurrent_counter_writes: 2
                concurrent_materialized_view_writes: 2
                # CQL requests in flight per node: a broker keeps a handful of connections (default 128)
                native_transport_max_threads: 16
                # one compaction and one flush at a time, throttled: background work must not take the cores from requests
                concurrent_compactors: 1
                compaction_throughput: 16MiB/s
                memtable_flush_writers: 1
                # small memtables: the working set is tiny, and a 512 MB heap keeps GC short (defaults: 1/4 of the heap each)
                memtable_allocation_type: heap_buffers
                memtable_heap_space: 64MiB
                memtable_offheap_space: 64MiB
                key_cache_size: 16MiB
                disk_access_mode: mmap_index_only
                # the dynamic snitch rescores replicas every 100 ms; with 2 replicas per DC a LOCAL_QUORUM needs both anyway
                dynamic_snitch: false
                # periodic housekeeping a throw-away local cluster does not need
                key_cache_save_period: 0s
                counter_cache_save_period: 0s
                index_summary_resize_interval: null
                auto_snapshot: false
                """.formatted(
                region.replicationFactor(), String.join(",", seeds), listen, wanAddress, rpc,
                broadcastRpc.map(a -> "broadcast_rpc_address: " + a + "\n").orElse(""),
                AddressPlan.STORAGE_PORT, AddressPlan.CQL_PORT,
                home.resolve("data"), home.resolve("commitlog"), home.resolve("hints"),
                home.resolve("saved_caches"), home.resolve("cdc_raw"));
    }

    /**
     * TLS for clients (no plaintext CQL: not {@code optional}) and between all nodes, which authenticate each
     * other by the stack's CA (client authentication on internode connections). No endpoint verification: Cassandra
     * 5.0 turns it on for the accepting side too, where its OpenSSL engine refuses every handshake ("Endpoint
     * Identification Algorithm HTTPS is not supported on the server side", seen in the first run).
     */
    String encryptionYaml(StackTls tls) {
        return """
                client_encryption_options:
                  enabled: true
                  optional: false
                  keystore: %1$s
                  keystore_password: %3$s
                  store_type: PKCS12
                  require_client_auth: false
                server_encryption_options:
                  internode_encryption: all
                  legacy_ssl_storage_port_enabled: false
                  optional: false
                  keystore: %1$s
                  keystore_password: %3$s
                  truststore: %2$s
                  truststore_password: %3$s
                  store_type: PKCS12
                  require_client_auth: true
                  require_endpoint_verification: false
                """.formatted(tls.keystore(tlsName()), tls.truststore(), tls.password());
    }

    private static final String FILE_APPENDER = """
              <appender name="LOG" class="ch.qos.logback.core.FileAppender">
                <file>%s</file>
                <encoder><pattern>%%-5level [%%thread] %%date{ISO8601} %%F:%%L - %%msg%%n</pattern></encoder>
              </appender>
            """;

    private static final String CONSOLE_APPENDER = """
              <appender name="LOG" class="ch.qos.logback.core.ConsoleAppender">
                <encoder><pattern>%-5level [%thread] %date{ISO8601} %F:%L - %msg%n</pattern></encoder>
              </appender>
            """;

    private static String logbackXml(String appender) {
        return "<configuration>\n" + appender + "  <root level=\"INFO\"><appender-ref ref=\"LOG\"/></root>\n</configuration>\n";
    }
}
