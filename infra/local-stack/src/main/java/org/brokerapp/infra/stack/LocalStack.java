package org.brokerapp.infra.stack;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.ClassDataArchive;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.host.ServerJava;
import org.brokerapp.infra.host.ServerLibraries;
import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.host.StackFiles;
import org.brokerapp.infra.servers.CassandraDisk;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.CqlRoles;
import org.brokerapp.infra.servers.ElasticsearchNode;
import org.brokerapp.infra.servers.FillableDisk;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.servers.KafkaBroker;
import org.brokerapp.infra.servers.KafkaCredentials;
import org.brokerapp.infra.servers.SearchLogins;
import org.brokerapp.infra.tls.BrokerTlsProperties;
import org.brokerapp.infra.tls.LocalCertificates;
import org.brokerapp.infra.tls.StackTls;
import org.brokerapp.infra.wan.NoWanEmulation;
import org.brokerapp.infra.wan.ToxiproxyWan;
import org.brokerapp.infra.wan.WanEmulator;
import org.brokerapp.infra.wan.WanEmulatorInstall;
import org.brokerapp.regions.CqlLogin;
import org.brokerapp.regions.DeploymentOutputs;
import org.brokerapp.regions.KafkaCredential;
import org.brokerapp.regions.KafkaTrust;
import org.brokerapp.regions.RegionsModel;

/**
 * The multi-region stack on one machine, on real servers: a Cassandra data center, a Kafka
 * broker and an Elasticsearch node per region, the WAN emulator between regions, and Prometheus
 * over all of them. {@link #start} returns only when the
 * stack is really ready: every node sees every node up and normal in its DC, CQL answers in every
 * DC, and every Kafka accepts clients. {@link #close} stops every process it started.
 *
 * <p>The servers run as JVM processes on this machine ({@link #start}) or, with the {@code docker} Maven profile, in
 * containers behind a Docker API ({@code ContainerStack}); either way at the same addresses, so the same tests run on
 * both. Only the processes' stack has WAN emulation.
 */
public final class LocalStack implements AutoCloseable {

    /**
     * Servers running in containers: what the stack needs of them. Kept free of Testcontainers types, so this class
     * loads without Testcontainers on the classpath (it is there only with the {@code docker} profile).
     */
    public interface Containers extends AutoCloseable {

        /** Which containers, for people. */
        String describe();

        /** Starts the Elasticsearch containers unless they run (see {@link LocalStack#startSearch}). */
        void startSearch(Progress progress);

        boolean searchRunning();

        /** Removes the containers and their network. */
        @Override
        void close();
    }

    public static final Duration CLUSTER_READY_TIMEOUT = Duration.ofSeconds(Math.max(90, Long.getLong("stack.start-timeout-seconds", 90)));
    public static final Duration STOP_GRACE = Duration.ofSeconds(30);
    /** How long {@link #fillDisk} waits for the node to stop serving. */
    public static final Duration DISK_FULL_TIMEOUT = Duration.ofSeconds(120);

    private final StackLayout layout;
    private final WanEmulator wan;
    private final List<ServerProcess> processes;
    private final ServerLibraries libs;
    private final Path java;
    private final Optional<Containers> containers;
    private final Duration timeToReady;
    private final Thread shutdownHook;
    private final String settingsArgs;
    private final Optional<WanStateExporter> wanExporter;
    private final KafkaCredentials kafkaCredentials;
    private final Optional<StackTls> tls;
    private final Optional<CqlRoles> cqlRoles;
    private final Map<String, FillableDisk> fillableDisks;

    private LocalStack(StackLayout layout, WanEmulator wan, List<ServerProcess> processes, Optional<Containers> containers, Duration timeToReady,
                       String settingsArgs, ServerLibraries libs, Path java, Optional<WanStateExporter> wanExporter,
                       KafkaCredentials kafkaCredentials, Optional<StackTls> tls, Optional<CqlRoles> cqlRoles, Map<String, FillableDisk> fillableDisks) {
        this.layout = layout;
        this.cqlRoles = cqlRoles;
        this.fillableDisks = Map.copyOf(fillableDisks);
        this.kafkaCredentials = kafkaCredentials;
        this.tls = tls;
        this.libs = libs;
        this.java = java;
        this.wanExporter = wanExporter;
        this.settingsArgs = settingsArgs;
        this.wan = wan;
        this.processes = new java.util.concurrent.CopyOnWriteArrayList<>(processes);
        this.containers = containers;
        this.timeToReady = timeToReady;
        this.shutdownHook = new Thread(this::stopAll, "local-stack-shutdown");
    }

    /** Starts the stack, or fails with a one-line {@link StackException} having stopped whatever had started. */
    public static LocalStack start(StackSettings requested, boolean clean, String requestedArgs, Progress progress) {
        StackSettings settings = requested;
        String settingsArgs = requestedArgs;
        // asked for WAN emulation, the stack runs with it or not at all: built on first use, or a one-line reason
        Optional<Path> toxiproxy = settings.wanEmulation() ? Optional.of(WanEmulatorInstall.findOrBuild(progress)) : Optional.empty();
        if (!settings.wanEmulation() && settings.cassandra()) {
            progress.warn("WAN emulation is OFF (--no-wan): regions talk at loopback speed and cannot be cut");
        }
        Optional<Path> prometheus = settings.metrics() ? PrometheusServer.findBinary() : Optional.empty();
        if (settings.metrics() && prometheus.isEmpty()) {
            progress.warn("prometheus was not found (install it with infra/bin/install-ops-tools, set " + PrometheusServer.BINARY_ENV
                    + " or pass --no-metrics): the stack runs WITHOUT metrics, rules and dashboards");
            settings = settings.withMetrics(false);
            settingsArgs = settingsArgs + " --no-metrics";
        }
        StackLayout layout = StackLayout.of(settings);
        ServerLibraries libs = ServerLibraries.fromBuild();
        libs.requirePresent();
        if (settings.search()) {
            libs.requireElasticsearchPresent();
        }
        Path java = ServerJava.find();
        Preflight.requirePortsFree(layout);
        prepareWorkDir(settings.workDir(), clean, progress);
        KafkaCredentials kafkaCredentials = KafkaCredentials.loadOrCreate(settings.workDir(), KafkaAccess.principals(settings.regions().names()));
        if (kafkaCredentials.created()) {
            progress.step("Kafka passwords generated in " + kafkaCredentials.dir() + " (one file per principal; Kafka data formatted anew)");
        }
        Optional<StackTls> tls = settings.tls() ? Optional.of(issueCertificates(layout, progress)) : Optional.empty();
        // the stack's TLS comes with logins for CQL, as Terraform's nodes take only logins
        Optional<CqlRoles> cqlRoles = settings.tls() && settings.cassandra() ? Optional.of(CqlRoles.loadOrCreate(settings.workDir())) : Optional.empty();
        Optional<CqlLogin> stackLogin = cqlRoles.map(r -> r.login(CqlRoles.STACK));

        List<ServerProcess> started = Collections.synchronizedList(new ArrayList<>());
        Map<String, FillableDisk> fillableDisks = new LinkedHashMap<>();
        Thread emergencyStop = new Thread(() -> {
            started.forEach(p -> p.stop(STOP_GRACE));
            unmount(fillableDisks.values());
        }, "local-stack-emergency-stop");
        Runtime.getRuntime().addShutdownHook(emergencyStop);
        Optional<WanStateExporter> wanExporter = Optional.empty();
        try {
            WanEmulator wan = toxiproxy.isPresent() ? startWan(toxiproxy.get(), layout, progress) : new NoWanEmulation("the stack runs without WAN emulation (--no-wan)");
            wan.process().ifPresent(started::add);
            new StackState(ProcessHandle.current().pid(), List.of(), settingsArgs).write(settings.workDir());

            // each Kafka's storage format and start (JVMs of several seconds) run beside the Cassandra seeds' start,
            // which is the long way: one node after another
            boolean metrics = settings.metrics();
            List<CompletableFuture<Void>> kafkaStarts = layout.kafka().stream().map(broker -> CompletableFuture.runAsync(() -> {
                started.add(broker.start(java, libs, metrics, kafkaCredentials, tls, broker == layout.kafka().get(0)));
                progress.step("starting " + broker.name() + " on " + broker.bootstrapServers());
            })).toList();
            if (settings.search()) {
                for (ElasticsearchNode node : layout.elasticsearch()) {
                    started.add(node.start(java, libs));
                    progress.step("starting " + node.name() + " on " + node.url() + " (heap " + node.heapMb() + " MB)");
                }
            }
            settings.fillableDisks().forEach((region, disk) -> {
                CassandraNode node = layout.drillableCassandraNode(region);
                fillableDisks.put(node.name(), FillableDisk.mount(node.dir().resolve(disk.directory()), disk));
                progress.step(node.name() + " keeps its " + disk.directory() + " directory on a " + FillableDisk.SIZE_MB
                        + " MB filesystem of its own (for a disk drill)");
            });
            try {
                startCassandra(layout, java, libs, started, tls, progress);
            } finally {
                // whatever failed, nothing may still be starting when what has started is stopped
                kafkaStarts.forEach(start -> start.exceptionally(failed -> null).join());
            }
            kafkaStarts.forEach(LocalStack::rethrowFailure);
            for (KafkaBroker broker : layout.kafka()) {
                processOf(started, broker.name()).awaitLogLine(broker.serverLog(), KafkaBroker.READY_MARKER, KafkaBroker.START_TIMEOUT);
                KafkaCredential admin = kafkaCredentials.of(KafkaAccess.ADMIN);
                awaitKafkaAccepting(broker, admin, tls.map(StackTls::kafkaTrust));
                grantAccess(broker, admin, tls.map(StackTls::kafkaTrust));
                progress.step(broker.name() + " accepts clients (SASL/SCRAM" + (tls.isPresent() ? " over TLS" : "") + ", "
                        + KafkaAccess.grants(broker.region().name()).size() + " ACLs)");
            }
            if (settings.search()) {
                awaitSearch(layout, started, progress);
            }
            if (settings.cassandra()) {
                progress.step("waiting until every Cassandra node sees every other up and normal (UN) in its DC");
                ClusterProbe.awaitAllUpNormal(layout.cassandra(), CLUSTER_READY_TIMEOUT);
            }
            if (cqlRoles.isPresent()) {
                String first = settings.regions().names().get(0);
                CassandraAuth.setUp(layout, cqlRoles.get(), login -> session(layout, tls, Optional.of(login), first), progress);
            }
            for (String region : settings.cassandra() ? settings.regions().names() : List.<String>of()) {
                awaitCqlAnswers(layout, tls, stackLogin, region);
                progress.step("CQL answers in DC " + settings.regions().region(region).datacenter());
            }

            if (prometheus.isPresent()) {
                wanExporter = Optional.of(WanStateExporter.start(layout, wan));
                started.add(PrometheusServer.start(prometheus.get(), layout, libs));
                progress.step("Prometheus up at " + PrometheusServer.url(settings.addresses()) + ", scraping every broker address, Cassandra node, Kafka and the WAN");
            }

            LocalStack stack = new LocalStack(layout, wan, List.copyOf(started), Optional.empty(), progress.elapsed(), settingsArgs, libs, java,
                    wanExporter, kafkaCredentials, tls, cqlRoles, fillableDisks);
            if (tls.isPresent()) {
                stack.writeBrokerTlsFiles();
            }
            new StackState(ProcessHandle.current().pid(), stack.processes.stream().map(ServerProcess::pid).toList(), settingsArgs)
                    .write(settings.workDir());
            if (settings.cassandra()) {
                // a Kafka-only stack has no deployment to point the harness at
                stack.deploymentOutputs().write(settings.workDir().resolve(DeploymentOutputs.LOCAL_STACK_FILE));
            }
            Runtime.getRuntime().addShutdownHook(stack.shutdownHook);
            return stack;
        } catch (RuntimeException e) {
            wanExporter.ifPresent(WanStateExporter::close);
            if (!started.isEmpty()) {
                progress.step("start failed, stopping what had started");
                started.forEach(p -> p.stop(STOP_GRACE));
            }
            unmount(fillableDisks.values());
            StackState.delete(settings.workDir());
            throw e;
        } finally {
            Runtime.getRuntime().removeShutdownHook(emergencyStop);
        }
    }

    /** A keystore for every Cassandra node, Kafka and region's broker address, from the stack's CA (made on first use). */
    private static StackTls issueCertificates(StackLayout layout, Progress progress) {
        AddressPlan plan = layout.settings().addresses();
        Map<String, List<String>> servers = new LinkedHashMap<>();
        for (CassandraNode node : layout.cassandra()) {
            servers.put(node.tlsName(), List.of(node.address(), node.wanAddress()).stream().distinct().toList());
        }
        for (KafkaBroker broker : layout.kafka()) {
            servers.put(broker.tlsName(), List.of(broker.address()));
        }
        List<String> regions = layout.settings().regions().names();
        for (int r = 1; r <= regions.size(); r++) {
            servers.put(brokerTlsName(regions.get(r - 1)), List.of(plan.brokerAddress(r), plan.brokerWanAddress(r)));
        }
        StackTls tls = LocalCertificates.issue(layout.settings().workDir().resolve(StackTls.DIRECTORY), servers, Instant.now());
        progress.step("TLS on: certificates for " + servers.size() + " servers from the stack's CA " + tls.caCertificate());
        return tls;
    }

    private static String brokerTlsName(String region) {
        return "broker-" + region;
    }

    private static void awaitSearch(StackLayout layout, List<ServerProcess> started, Progress progress) {
        for (ElasticsearchNode node : layout.elasticsearch()) {
            node.awaitReady(processOf(started, node.name()));
            progress.step(node.name() + " answers (cluster " + node.clusterName() + " yellow or green)");
        }
    }

    /**
     * Starts the Elasticsearch nodes of a stack that runs without them (tests of search ask for
     * them; the other suites never pay for them); does nothing when they already run.
     */
    public synchronized void startSearch(Progress progress) {
        if (containers.isPresent()) {
            containers.get().startSearch(progress);
            return;
        }
        if (layout.elasticsearch().stream().allMatch(n -> processes.stream().anyMatch(p -> p.name().equals(n.name()) && p.isAlive()))) {
            return;
        }
        libs.requireElasticsearchPresent();
        List<ServerProcess> started = new ArrayList<>();
        for (ElasticsearchNode node : layout.elasticsearch()) {
            processes.removeIf(p -> p.name().equals(node.name()));
            for (var address : Preflight.elasticsearchPorts(layout)) {
                if (address.getHostString().equals(node.address())) {
                    Preflight.requireFree(address, layout.settings().addresses().instance());
                }
            }
            started.add(node.start(java, libs));
            progress.step("starting " + node.name() + " on " + node.url());
        }
        processes.addAll(started);
        awaitSearch(layout, started, progress);
        new StackState(ProcessHandle.current().pid(), processes.stream().map(ServerProcess::pid).toList(), settingsArgs).write(layout.settings().workDir());
    }

    /** Stops a region's Elasticsearch node (SIGTERM), as an outage; {@link #startElasticsearch} brings it back with its data. */
    public void stopElasticsearch(String region) {
        requireProcesses("stopping a region's Elasticsearch");
        String name = layout.elasticsearchIn(region).name();
        processes.stream().filter(p -> p.name().equals(name)).forEach(p -> p.stop(STOP_GRACE));
    }

    /** Starts a region's Elasticsearch node again after {@link #stopElasticsearch}, and waits until it answers. */
    public synchronized void startElasticsearch(String region) {
        requireProcesses("starting a region's Elasticsearch again");
        ElasticsearchNode node = layout.elasticsearchIn(region);
        processes.removeIf(p -> p.name().equals(node.name()) && !p.isAlive());
        ServerProcess process = node.start(java, libs);
        processes.add(process);
        node.awaitReady(process);
        new StackState(ProcessHandle.current().pid(), processes.stream().map(ServerProcess::pid).toList(), settingsArgs).write(layout.settings().workDir());
    }

    /** The Cassandra node of a region that a node drill kills or fills ({@link StackLayout#drillableCassandraNode}). */
    public String drillableCassandraNode(String region) {
        return layout.drillableCassandraNode(region).name();
    }

    /**
     * Fills the disk of a node the stack runs on a {@link FillableDisk} ({@link StackSettings#fillableDisks}) and waits
     * until the other nodes of its DC see it down or {@link #DISK_FULL_TIMEOUT} has passed. A full data disk is met by the
     * flush this asks for ({@code disk_failure_policy: stop} stops the node's gossip and CQL); a full commit log disk by
     * the next write the node takes ({@code commit_failure_policy: stop}): no flush then, since a flush would free
     * commit log segments.
     */
    public DiskFull fillDisk(String name) {
        requireProcesses("filling a Cassandra node's disk");
        CassandraNode node = cassandraNode(name);
        FillableDisk disk = Optional.ofNullable(fillableDisks.get(name))
                .orElseThrow(() -> new StackException(name + " does not keep its data on a fillable disk (the stack was not started for a disk-full drill)"));
        long logBefore = sizeOf(node.systemLog());
        List<Path> crashesBefore = node.crashReports();
        long start = System.nanoTime();
        long filled = disk.fill();
        if (disk.holds() == CassandraDisk.DATA) {
            // not waited for: a flush that meets a full disk can hold its JMX call for tens of seconds after the node stopped
            Thread flush = new Thread(() -> ClusterProbe.flushAll(node), "flush-" + node.tlsName());
            flush.setDaemon(true);
            flush.start();
        }
        List<CassandraNode> peers = layout.cassandraIn(node.region().name()).stream().filter(n -> !n.equals(node)).toList();
        Optional<Duration> down = Optional.empty();
        while (down.isEmpty() && System.nanoTime() - start < DISK_FULL_TIMEOUT.toNanos()) {
            if (peers.stream().allMatch(peer -> seesDown(peer, node))) {
                down = Optional.of(Duration.ofNanos(System.nanoTime() - start));
            } else {
                ServerProcess.sleep(Duration.ofMillis(200));
            }
        }
        Optional<String> crash = node.crashReports().stream().filter(r -> !crashesBefore.contains(r)).findFirst().flatMap(LocalStack::crashSummary);
        return new DiskFull(filled, down, crash.or(() -> diskErrorAfter(node.systemLog(), logBefore)));
    }

    /**
     * What a node did when its disk filled.
     *
     * @param filledBytes what the drill wrote to fill it
     * @param downAfter   from the fill's start until the other nodes of its DC saw it down; empty when they never did
     * @param error       what the node did after the fill: its JVM's crash when it crashed (a full disk under a memory-mapped
     *                    commit log segment is a SIGBUS), else its disk failure policy's line from its log, else its first
     *                    logged error (its words, shortened), and the cause when it was a full disk
     */
    public record DiskFull(long filledBytes, Optional<Duration> downAfter, Optional<String> error) {
    }

    /** Unmounts each disk, telling (not throwing) what it could not: the stack's other clean-up goes on. */
    private static void unmount(java.util.Collection<FillableDisk> disks) {
        for (FillableDisk disk : disks) {
            try {
                disk.unmount();
            } catch (StackException e) {
                System.err.println("could not unmount " + disk.mountPoint() + " (umount it by hand): " + e.getMessage());
            }
        }
    }

    /** Frees the disk {@link #fillDisk} filled, and restarts the node on its data: the time until the cluster sees it up again. */
    public synchronized Duration freeDiskAndRestart(String name) {
        FillableDisk disk = Optional.ofNullable(fillableDisks.get(name)).orElseThrow(() -> new StackException(name + " has no fillable disk"));
        long start = System.nanoTime();
        disk.free();
        // a node whose disk policy stopped it keeps its JVM (JMX only): a restart is how it comes back
        killCassandra(name);
        restartCassandra(name);
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static boolean seesDown(CassandraNode observer, CassandraNode node) {
        try {
            return ClusterProbe.viewFrom(observer).stream().noneMatch(s -> s.address().equals(node.wanAddress()) && s.up());
        } catch (StackException e) {
            return false;
        }
    }

    /**
     * What a Cassandra log says about a disk failure past its first {@code offset} bytes: the line of its disk (or
     * commit) failure policy, else its first error, shortened to the message, with the cause when the disk was full.
     */
    private static final Pattern CRASH_SIGNAL = Pattern.compile("^#\\s+(SIG[A-Z]+) \\(0x[0-9a-f]+\\)", Pattern.MULTILINE);
    private static final Pattern CRASH_THREAD = Pattern.compile("^Current thread \\([^)]*\\):\\s+JavaThread \"([^\"]+)\"", Pattern.MULTILINE);

    /** "the JVM crashed: SIGBUS in thread MutationStage-1 (hs_err_pid3012.log)", from a JVM crash report. */
    static Optional<String> crashSummary(Path report) {
        try {
            return Optional.of(crashSummary(Files.readString(report), report.getFileName().toString()));
        } catch (IOException e) {
            return Optional.of("the JVM crashed (" + report.getFileName() + ", unreadable: " + e.getMessage() + ")");
        }
    }

    static String crashSummary(String report, String name) {
        Matcher signal = CRASH_SIGNAL.matcher(report);
        Matcher thread = CRASH_THREAD.matcher(report);
        return "the JVM crashed" + (signal.find() ? ": " + signal.group(1) : "") + (thread.find() ? " in thread " + thread.group(1) : "")
                + " (" + name + ")";
    }

    static Optional<String> diskErrorAfter(Path log, long offset) {
        Optional<String> written = logAfter(log, offset);
        if (written.isEmpty()) {
            return Optional.empty();
        }
        String tail = written.get();
        List<String> errors = tail.lines().filter(l -> l.startsWith("ERROR")).map(l -> l.contains(" - ") ? l.substring(l.indexOf(" - ") + 3) : l).toList();
        Optional<String> said = errors.stream().filter(l -> l.contains("failure_policy")).findFirst().or(() -> errors.stream().findFirst())
                .map(l -> l.length() > 120 ? l.substring(0, 120) + "..." : l);
        String cause = tail.contains("No space left on device") ? " (No space left on device)" : "";
        return said.map(l -> l + cause);
    }

    private CassandraNode cassandraNode(String name) {
        return layout.cassandra().stream().filter(n -> n.name().equals(name)).findFirst()
                .orElseThrow(() -> new StackException("no Cassandra node " + name + " in this stack"));
    }

    /** Kills a Cassandra node as a crash would (SIGKILL); {@link #restartCassandra} starts it again on its data. */
    public void killCassandra(String name) {
        requireProcesses("killing a Cassandra node");
        processes.stream().filter(p -> p.name().equals(name)).forEach(ServerProcess::kill);
    }

    /**
     * Holds a Cassandra node where it is (SIGSTOP): it keeps its connections but answers nothing, so
     * the writes that need it time out; {@link #resumeCassandra} lets it go on.
     */
    public void pauseCassandra(String name) {
        requireProcesses("pausing a Cassandra node");
        cassandraNode(name);
        processes.stream().filter(p -> p.name().equals(name)).forEach(ServerProcess::pause);
    }

    public void resumeCassandra(String name) {
        requireProcesses("resuming a Cassandra node");
        processes.stream().filter(p -> p.name().equals(name)).forEach(ServerProcess::resume);
    }

    /**
     * Starts a Cassandra node again after {@link #killCassandra}, on its data (commit log replayed),
     * and waits until it has started again and every node of the cluster sees every other up.
     *
     * @return the time from the start to that
     */
    public synchronized Duration restartCassandra(String name) {
        requireProcesses("starting a Cassandra node again");
        CassandraNode node = cassandraNode(name);
        long start = System.nanoTime();
        long logBefore = sizeOf(node.systemLog());
        processes.removeIf(p -> p.name().equals(name) && !p.isAlive());
        ServerProcess process = node.start(java, libs, layout.settings().metrics(), tls, false);
        processes.add(process);
        process.awaitReady(() -> logContainsAfter(node.systemLog(), logBefore, CassandraNode.READY_MARKER), "'" + CassandraNode.READY_MARKER
                + "' in a new part of " + node.systemLog(), CassandraNode.START_TIMEOUT);
        ClusterProbe.awaitAllUpNormal(layout.cassandra(), CLUSTER_READY_TIMEOUT);
        new StackState(ProcessHandle.current().pid(), processes.stream().map(ServerProcess::pid).toList(), settingsArgs).write(layout.settings().workDir());
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static long sizeOf(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Whether {@code marker} is in {@code file} past its first {@code offset} bytes (what was written after a restart). */
    private static boolean logContainsAfter(Path file, long offset, String marker) {
        return logAfter(file, offset).filter(tail -> tail.contains(marker)).isPresent();
    }

    /** What {@code file} got past its first {@code offset} bytes (at most 64 MB of it); empty when nothing or unreadable. */
    private static Optional<String> logAfter(Path file, long offset) {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            if (in.length() <= offset) {
                return Optional.empty();
            }
            in.seek(offset);
            byte[] tail = new byte[(int) Math.min(in.length() - offset, 64L << 20)];
            in.readFully(tail);
            return Optional.of(new String(tail, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Kills a region's Kafka broker as a crash would (SIGKILL); {@link #restartKafka} starts it again on its data. */
    public void killKafka(String region) {
        requireProcesses("killing a region's Kafka");
        String name = layout.kafkaIn(region).name();
        processes.stream().filter(p -> p.name().equals(name)).forEach(ServerProcess::kill);
    }

    /**
     * Starts a region's Kafka broker again after {@link #killKafka}, on the data, credentials and ACLs
     * it had, and waits until it accepts clients again (a killed broker first recovers its logs).
     *
     * @return the time from the start to accepting clients
     */
    public synchronized Duration restartKafka(String region) {
        requireProcesses("starting a region's Kafka again");
        KafkaBroker broker = layout.kafkaIn(region);
        long start = System.nanoTime();
        processes.removeIf(p -> p.name().equals(broker.name()) && !p.isAlive());
        ServerProcess process = broker.restart(java, libs, layout.settings().metrics());
        processes.add(process);
        KafkaCredential admin = kafkaCredentials.of(KafkaAccess.ADMIN);
        process.awaitReady(() -> {
            try {
                awaitKafkaAccepting(broker, admin, tls.map(StackTls::kafkaTrust));
                return true;
            } catch (StackException e) {
                return false;
            }
        }, "a cluster description for the admin", KafkaBroker.START_TIMEOUT);
        new StackState(ProcessHandle.current().pid(), processes.stream().map(ServerProcess::pid).toList(), settingsArgs).write(layout.settings().workDir());
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** The base URL of a region's Elasticsearch node (it answers only while search runs). */
    public String elasticsearchUrl(String region) {
        return layout.elasticsearchIn(region).url();
    }

    /** The logins every Elasticsearch node of this stack asks for ({@link SearchLogins#BROKER}, {@link SearchLogins#ADMIN}). */
    public SearchLogins searchLogins() {
        return SearchLogins.loadOrCreate(layout.settings().workDir());
    }

    public boolean searchRunning() {
        if (containers.isPresent()) {
            return containers.get().searchRunning();
        }
        return layout.elasticsearch().stream().allMatch(n -> processes.stream().anyMatch(p -> p.name().equals(n.name()) && p.isAlive()));
    }

    /** The stack whose servers run in {@code containers}, ready; closing it removes them. */
    public static LocalStack inContainers(StackLayout layout, Containers containers, Duration timeToReady, ServerLibraries libs,
                                   KafkaCredentials kafkaCredentials) {
        LocalStack stack = new LocalStack(layout, new NoWanEmulation("the stack runs in containers, without WAN emulation"), List.of(),
                Optional.of(containers), timeToReady, "--instance " + layout.settings().instance() + " (in containers)", libs, Path.of("java"),
                Optional.empty(), kafkaCredentials, Optional.empty(), Optional.empty(), Map.of());
        if (layout.settings().cassandra()) {
            stack.deploymentOutputs().write(layout.settings().workDir().resolve(DeploymentOutputs.LOCAL_STACK_FILE));
        }
        Runtime.getRuntime().addShutdownHook(stack.shutdownHook);
        return stack;
    }

    /** Outages of single servers are drills on processes; the stack in containers does not offer them. */
    private void requireProcesses(String what) {
        if (containers.isPresent()) {
            throw new StackException(what + " is not supported when the stack runs in containers (" + containers.get().describe() + ")");
        }
    }

    public static void prepareWorkDir(Path workDir, boolean clean, Progress progress) {
        // a disk-full drill's filesystem that a killed run left mounted: wiping or reusing the directory needs it gone
        FillableDisk.unmountAllUnder(workDir);
        try {
            if (clean && Files.exists(workDir)) {
                progress.step("--clean: wiping " + workDir);
                StackFiles.deleteTree(workDir);
            }
            Files.createDirectories(workDir);
        } catch (IOException | UncheckedIOException e) {
            throw new StackException("cannot prepare work directory " + workDir + ": " + e.getMessage(), e);
        }
    }

    private static WanEmulator startWan(Path binary, StackLayout layout, Progress progress) {
        StackSettings settings = layout.settings();
        ToxiproxyWan wan = ToxiproxyWan.start(binary, settings.addresses(), settings.workDir(), settings.regions().names());
        for (CassandraNode node : layout.cassandra()) {
            wan.route(WanEmulator.CASSANDRA_ROUTE + node.node(), node.region().name(), node.wanAddress() + ":" + AddressPlan.STORAGE_PORT,
                    node.address() + ":" + AddressPlan.STORAGE_PORT, layout.oneWayLatencyInto(node.region().name()));
        }
        AddressPlan plan = settings.addresses();
        List<String> regions = settings.regions().names();
        for (int r = 1; r <= regions.size(); r++) {
            // brokers call each other over HTTP: request and answer share one connection, so both directions are delayed
            Duration into = layout.oneWayLatencyInto(regions.get(r - 1));
            wan.routeRequestResponse("broker", regions.get(r - 1), plan.brokerWanAddress(r) + ":" + AddressPlan.BROKER_PORT,
                    plan.brokerAddress(r) + ":" + AddressPlan.BROKER_PORT, into, into);
            // the same route to an echo, for the load harness's bare round trip (nothing listens unless it runs)
            wan.routeRequestResponse("echo", regions.get(r - 1), plan.brokerWanAddress(r) + ":" + AddressPlan.WAN_ECHO_PORT,
                    plan.brokerAddress(r) + ":" + AddressPlan.WAN_ECHO_PORT, into, into);
        }
        if (!layout.latencyIsExact()) {
            progress.warn("toxiproxy delays by destination: with these regions each destination gets the MEAN of the delays configured towards it");
        }
        progress.step("WAN emulator up (toxiproxy " + settings.addresses().wanControlAddress() + ":" + settings.addresses().wanControlPort()
                + "), cross-region traffic delayed as configured");
        return wan;
    }

    /** Seeds (one per DC) start together; the others one at a time, as parallel joins lose gossip races. */
    private static void startCassandra(StackLayout layout, Path java, ServerLibraries libs, List<ServerProcess> started,
                                       Optional<StackTls> tls, Progress progress) {
        List<CassandraNode> seeds = layout.cassandra().stream().filter(CassandraNode::isSeed).toList();
        for (CassandraNode seed : seeds) {
            // the first node records the class data archive the others map from the next start on
            started.add(seed.start(java, libs, layout.settings().metrics(), tls, seed == seeds.get(0)));
            progress.step("starting " + seed.name() + " (seed) on " + seed.address());
        }
        for (CassandraNode seed : seeds) {
            processOf(started, seed.name()).awaitLogLine(seed.systemLog(), CassandraNode.READY_MARKER, CassandraNode.START_TIMEOUT);
            progress.step(seed.name() + " started");
        }
        for (CassandraNode node : layout.cassandra()) {
            if (!node.isSeed()) {
                ServerProcess process = node.start(java, libs, layout.settings().metrics(), tls, false);
                started.add(process);
                progress.step("starting " + node.name() + " on " + node.address());
                process.awaitLogLine(node.systemLog(), CassandraNode.READY_MARKER, CassandraNode.START_TIMEOUT);
                progress.step(node.name() + " started");
            }
        }
    }

    private static void rethrowFailure(CompletableFuture<Void> done) {
        try {
            done.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    private static ServerProcess processOf(List<ServerProcess> processes, String name) {
        synchronized (processes) {
            return processes.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
        }
    }

    private static Map<String, Object> adminConfig(KafkaBroker broker, KafkaCredential admin, Optional<KafkaTrust> trust) {
        Map<String, Object> config = new java.util.HashMap<>(admin.clientProperties(trust));
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        return config;
    }

    public static void awaitKafkaAccepting(KafkaBroker broker, KafkaCredential adminLogin, Optional<KafkaTrust> trust) {
        try (Admin admin = Admin.create(adminConfig(broker, adminLogin, trust))) {
            if (admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).isEmpty()) {
                throw new StackException(broker.name() + " reports no brokers");
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new StackException(broker.name() + " does not accept clients on " + broker.bootstrapServers() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("interrupted");
        }
    }

    /** Creates the region's ACLs of {@link KafkaAccess} (creating an existing one again changes nothing). */
    public static void grantAccess(KafkaBroker broker, KafkaCredential adminLogin, Optional<KafkaTrust> trust) {
        try (Admin admin = Admin.create(adminConfig(broker, adminLogin, trust))) {
            admin.createAcls(KafkaAccess.bindings(broker.region().name())).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new StackException(broker.name() + " did not take its ACLs: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("interrupted");
        }
    }

    public static void awaitCqlAnswers(StackLayout layout, Optional<StackTls> tls, Optional<CqlLogin> login, String region) {
        try (CqlSession session = session(layout, tls, login, region)) {
            session.execute("SELECT release_version FROM system.local");
        } catch (RuntimeException e) {
            throw new StackException("CQL does not answer in " + region + ": " + e.getMessage(), e);
        }
    }

    private static CqlSession session(StackLayout layout, Optional<StackTls> tls, Optional<CqlLogin> login, String region) {
        CqlSessionBuilder builder = CqlSession.builder()
                .addContactPoints(layout.cassandraIn(region).stream()
                        .map(n -> new InetSocketAddress(n.address(), AddressPlan.CQL_PORT)).toList())
                .withLocalDatacenter(layout.settings().regions().region(region).datacenter());
        tls.ifPresent(t -> builder.withSslContext(t.clientContext()));
        login.ifPresent(l -> builder.withAuthCredentials(l.role(), l.password()));
        return builder.build();
    }

    /**
     * A new driver session pinned to a region's DC (over TLS, trusting the stack's CA, and logged in as the
     * stack's superuser role, when the stack runs TLS); the caller closes it.
     */
    public CqlSession cqlSession(String region) {
        return session(layout, tls, cqlLogin(CqlRoles.STACK), region);
    }

    /** The login of one of the stack's {@link CqlRoles}; none when its Cassandra takes any client (no TLS). */
    public Optional<CqlLogin> cqlLogin(String role) {
        return cqlRoles.map(r -> r.login(role));
    }

    /** The file holding a CQL role's password ({@code --cql-login ROLE=FILE}), when the stack runs TLS. */
    public Optional<Path> cqlPasswordFile(String role) {
        return cqlRoles.map(r -> r.passwordFile(role));
    }

    /** The stack's certificates, when it runs with TLS ({@code stack up --tls}). */
    public Optional<StackTls> tls() {
        return tls;
    }

    /**
     * The broker-service settings a region's broker needs on this stack's TLS ({@link BrokerTlsProperties}: HTTPS with
     * its certificate, CQL over TLS, {@code https} peers); none when the stack runs without TLS.
     */
    public Map<String, String> brokerTlsProperties(String region) {
        regionNumber(region);
        return tls.map(t -> BrokerTlsProperties.of(t, t.keystore(brokerTlsName(region)), cqlLogin(CqlRoles.BROKER).orElseThrow())).orElse(Map.of());
    }

    public List<InetSocketAddress> cqlContactPoints(String region) {
        return layout.cassandraIn(region).stream().map(n -> new InetSocketAddress(n.address(), AddressPlan.CQL_PORT)).toList();
    }

    public String localDatacenter(String region) {
        return layout.settings().regions().region(region).datacenter();
    }

    public String kafkaBootstrapServers(String region) {
        return layout.kafkaIn(region).bootstrapServers();
    }

    /** The login of a Kafka principal of this stack ({@link KafkaAccess#ADMIN}, {@link KafkaAccess#FEED}, {@link KafkaAccess#broker}). */
    public KafkaCredential kafkaCredential(String principal) {
        return kafkaCredentials.of(principal);
    }

    /** The file holding a Kafka principal's password, for clients that take a password file. */
    public Path kafkaPasswordFile(String principal) {
        return kafkaCredentials.passwordFile(principal);
    }

    /** Where a region's Kafka answers and how {@code principal} logs in: the start of any client's configuration. */
    public Map<String, Object> kafkaClientConfig(String region, String principal) {
        Map<String, Object> config = new java.util.HashMap<>(kafkaCredential(principal).clientProperties(tls.map(StackTls::kafkaTrust)));
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrapServers(region));
        return config;
    }

    /** The directory of the Kafka password files, one per principal. */
    public Path kafkaCredentialsDir() {
        return kafkaCredentials.dir();
    }

    public RegionsModel regions() {
        return layout.settings().regions();
    }

    public StackLayout layout() {
        return layout;
    }

    public boolean wanEmulated() {
        return wan.emulating();
    }

    public void cut(String region) {
        wan.cut(region);
    }

    public void heal(String region) {
        wan.heal(region);
    }

    /** Delays the answers {@code region}'s servers send across the WAN by {@code extra} more (zero removes it): late answers, for timeout tests. */
    public void slowDown(String region, Duration extra) {
        wan.slowDown(region, extra);
    }

    /** Makes {@code region}'s Cassandra replicas lag by {@code extra} more behind the other DCs' writes (zero removes it). */
    public void delayReplicationInto(String region, Duration extra) {
        wan.delayReplicationInto(region, extra);
    }

    /** Where a region's broker should listen: the stack routes other regions' broker traffic to it. */
    public String brokerAddress(String region) {
        return layout.settings().addresses().brokerAddress(regionNumber(region)) + ":" + AddressPlan.BROKER_PORT;
    }

    /** For a broker started by hand on this TLS stack: its TLS settings and https peers, to import with {@code --spring.config.import=file:<file>}. */
    public Path brokerTlsFile(String region) {
        regionNumber(region);
        return tls.orElseThrow(() -> new StackException("the stack runs without TLS (--tls)")).dir().resolve(brokerTlsName(region) + ".properties");
    }

    private void writeBrokerTlsFiles() {
        for (String region : regions().names()) {
            Map<String, String> settings = new LinkedHashMap<>(brokerTlsProperties(region));
            regions().names().stream().filter(other -> !other.equals(region))
                    .forEach(other -> settings.put("broker.routing.peers." + other, brokerUrlFromOtherRegions(other)));
            BrokerTlsProperties.write(brokerTlsFile(region), settings);
        }
    }

    /** The base URL of a region's broker on its own address ({@code https} when the stack runs TLS). */
    public String brokerUrl(String region) {
        return brokerScheme() + brokerAddress(region);
    }

    /** The base URL other regions' brokers use to reach a region's broker (through the WAN when emulated). */
    public String brokerUrlFromOtherRegions(String region) {
        AddressPlan plan = layout.settings().addresses();
        String host = wan.emulating() ? plan.brokerWanAddress(regionNumber(region)) : plan.brokerAddress(regionNumber(region));
        return brokerScheme() + host + ":" + AddressPlan.BROKER_PORT;
    }

    /** A stack running with TLS has its brokers serve HTTPS only. */
    private String brokerScheme() {
        return tls.isPresent() ? "https://" : "http://";
    }

    private int regionNumber(String region) {
        int index = layout.settings().regions().names().indexOf(region);
        if (index < 0) {
            throw new StackException("unknown region '" + region + "'; known: " + layout.settings().regions().names());
        }
        return index + 1;
    }

    public List<NodeStatus> clusterViewFrom(CassandraNode observer) {
        return ClusterProbe.viewFrom(observer);
    }

    public boolean allNodesUpNormal() {
        return ClusterProbe.allUpNormal(layout.cassandra());
    }

    public void awaitAllNodesUpNormal(Duration timeout) {
        ClusterProbe.awaitAllUpNormal(layout.cassandra(), timeout);
    }

    /**
     * Returns once every Cassandra node of every region has applied the same schema: call it after DDL, before
     * another region uses what it created. The driver's own wait after DDL is not enough for that: it gives up
     * after 10 s and goes on, and it counts only the nodes it knows to be up, which leaves out the other regions'
     * nodes (it does not connect to them) until an event says they are up. CI once found the other region still
     * without a new table 30 s after a cut of it had healed.
     */
    public void awaitSchemaAgreement(Duration timeout) {
        ClusterProbe.awaitSchemaAgreement(layout.cassandra(), timeout);
    }

    /**
     * Where this stack's servers answer, in the shape of {@code terraform output -json}: written to
     * {@code <work-dir>/terraform-outputs.json} while the stack is up, so {@code loadtest
     * --target-terraform} loads a local stack exactly as it loads one on AWS. The broker URL is
     * where a region's broker listens once started (the stack reserves the address, see
     * {@link #brokerAddress}). With TLS on, every region's Kafka and CQL CA is the stack's, as Terraform's are the deployment's.
     */
    public DeploymentOutputs deploymentOutputs() {
        Optional<String> ca = tls.map(StackTls::caCertificatePem);
        Map<String, DeploymentOutputs.RegionEndpoints> regions = new LinkedHashMap<>();
        for (String region : regions().names()) {
            regions.put(region, new DeploymentOutputs.RegionEndpoints(brokerUrl(region), kafkaBootstrapServers(region),
                    cqlContactPoints(region).stream().map(a -> a.getHostString() + ":" + a.getPort()).toList(), localDatacenter(region),
                    Optional.of(kafkaCredentials.dir().toString()), ca, ca));
        }
        return new DeploymentOutputs(regions);
    }

    /** Prometheus's base URL, when the stack runs with metrics. */
    public Optional<String> prometheusUrl() {
        return layout.settings().metrics() ? Optional.of(PrometheusServer.url(layout.settings().addresses())) : Optional.empty();
    }

    public Duration timeToReady() {
        return timeToReady;
    }

    /** The servers' processes on this machine: none when they run in containers. */
    public List<ServerProcess> processes() {
        return List.copyOf(processes);
    }

    /** How the servers run, for people: as processes here, or in which containers. */
    public String servers() {
        return containers.map(Containers::describe).orElse("JVM processes on this machine");
    }

    public long totalRssBytes() {
        return processes.stream().mapToLong(p -> p.rssBytes().orElse(0L)).sum();
    }

    public String describe() {
        return StackReport.describe(this);
    }

    /** Leaves the servers running after this JVM exits; {@code stack down} stops them by PID. */
    public void detach() {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
        new StackState(-1, processes.stream().map(ServerProcess::pid).toList(), settingsArgs).write(layout.settings().workDir());
        ClassDataArchive.noteLeft(leftRecordings(layout.settings().workDir()),
                processes.stream().flatMap(p -> p.recording().stream()).toList());
    }

    /** Where a detached stack notes the class data archives its servers will write as they stop ({@code stack down} keeps them). */
    public static Path leftRecordings(Path workDir) {
        return workDir.resolve("class-data-recordings");
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook itself is running or about to: it stops the servers
        }
        stopAll();
    }

    private synchronized void stopAll() {
        wanExporter.ifPresent(WanStateExporter::close);
        // all in parallel: a Cassandra node takes 6-10 s to drain on SIGTERM
        CompletableFuture.allOf(processes.stream()
                .map(p -> CompletableFuture.runAsync(() -> p.stop(STOP_GRACE)))
                .toArray(CompletableFuture[]::new)).join();
        unmount(fillableDisks.values());
        containers.ifPresent(c -> c.close());
        StackState.delete(layout.settings().workDir());
        try {
            Files.deleteIfExists(layout.settings().workDir().resolve(DeploymentOutputs.LOCAL_STACK_FILE));
        } catch (IOException e) {
            // a stale file only names addresses nobody listens on; the next start overwrites it
        }
    }
}
