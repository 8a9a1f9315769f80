package org.brokerapp.infra.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import com.datastax.oss.driver.api.core.CqlSession;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.ClassDataArchive;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.host.ServerLibraries;
import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.host.StackFiles;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.CqlRoles;
import org.brokerapp.infra.servers.ElasticsearchNode;
import org.brokerapp.infra.servers.FillableDisk;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.servers.KafkaCredentials;
import org.brokerapp.infra.servers.SearchLogins;
import org.brokerapp.infra.tls.BrokerTlsProperties;
import org.brokerapp.infra.tls.StackTls;
import org.brokerapp.infra.wan.NoWanEmulation;
import org.brokerapp.infra.wan.WanEmulator;
import org.brokerapp.regions.CqlLogin;
import org.brokerapp.regions.DeploymentOutputs;
import org.brokerapp.regions.KafkaCredential;
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

    public static final Duration CLUSTER_READY_TIMEOUT = Duration.ofSeconds(Math.max(90, Long.getLong("stack.start-timeout-seconds", 90)));
    public static final Duration STOP_GRACE = Duration.ofSeconds(30);
    /** How long {@link #fillDisk} waits for the node to stop serving. */
    public static final Duration DISK_FULL_TIMEOUT = Duration.ofSeconds(120);

    private final StackLayout layout;
    private final WanEmulator wan;
    private final List<ServerProcess> processes;
    private final ServerLibraries libs;
    private final Path java;
    private final Optional<StackContainers> containers;
    private final Duration timeToReady;
    private final Thread shutdownHook;
    private final String settingsArgs;
    private final Optional<WanStateExporter> wanExporter;
    private final KafkaCredentials kafkaCredentials;
    private final Optional<StackTls> tls;
    private final Optional<CqlRoles> cqlRoles;
    private final Map<String, FillableDisk> fillableDisks;
    private final ServerOutages outages;

    LocalStack(StackLayout layout, WanEmulator wan, List<ServerProcess> processes, Optional<StackContainers> containers, Duration timeToReady,
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
        this.outages = new ServerOutages(layout, this.processes, java, libs, tls, kafkaCredentials, this.fillableDisks, this::recordProcesses);
    }

    static String brokerTlsName(String region) {
        return "broker-" + region;
    }

    /** Starts the stack, or fails with a one-line {@link StackException} having stopped whatever had started. */
    public static LocalStack start(StackSettings requested, boolean clean, String requestedArgs, Progress progress) {
        return NativeStart.start(requested, clean, requestedArgs, progress);
    }

    /** Stops a region's Elasticsearch node (SIGTERM), as an outage; {@link #startElasticsearch} brings it back with its data. */
    public void stopElasticsearch(String region) {
        outages("stopping a region's Elasticsearch").stopElasticsearch(region);
    }

    /** Starts a region's Elasticsearch node again after {@link #stopElasticsearch}, and waits until it answers. */
    public void startElasticsearch(String region) {
        outages("starting a region's Elasticsearch again").startElasticsearch(region);
    }

    /**
     * Fills the disk of a node the stack runs on a {@link FillableDisk} ({@link StackSettings#fillableDisks}) and waits
     * until the other nodes of its DC see it down or {@link #DISK_FULL_TIMEOUT} has passed.
     */
    public DiskFull fillDisk(String name) {
        return outages("filling a Cassandra node's disk").fillDisk(name);
    }

    /** Frees the disk {@link #fillDisk} filled, and restarts the node on its data: the time until the cluster sees it up again. */
    public Duration freeDiskAndRestart(String name) {
        return outages("freeing a Cassandra node's disk").freeDiskAndRestart(name);
    }

    /** Kills a Cassandra node as a crash would (SIGKILL); {@link #restartCassandra} starts it again on its data. */
    public void killCassandra(String name) {
        outages("killing a Cassandra node").killCassandra(name);
    }

    /** Holds a Cassandra node where it is (SIGSTOP): it answers nothing until {@link #resumeCassandra}. */
    public void pauseCassandra(String name) {
        outages("pausing a Cassandra node").pauseCassandra(name);
    }

    public void resumeCassandra(String name) {
        outages("resuming a Cassandra node").resumeCassandra(name);
    }

    /** Starts a Cassandra node again after {@link #killCassandra}, on its data: the time until every node sees every other up. */
    public Duration restartCassandra(String name) {
        return outages("starting a Cassandra node again").restartCassandra(name);
    }

    /** Kills a region's Kafka broker as a crash would (SIGKILL); {@link #restartKafka} starts it again on its data. */
    public void killKafka(String region) {
        outages("killing a region's Kafka").killKafka(region);
    }

    /** Starts a region's Kafka broker again after {@link #killKafka}: the time until it accepts clients again. */
    public Duration restartKafka(String region) {
        return outages("starting a region's Kafka again").restartKafka(region);
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
        NativeStart.awaitSearch(layout, started, progress);
        recordProcesses();
    }

    /** The Cassandra node of a region that a node drill kills or fills ({@link StackLayout#drillableCassandraNode}). */
    public String drillableCassandraNode(String region) {
        return layout.drillableCassandraNode(region).name();
    }

    /** Unmounts each disk, telling (not throwing) what it could not: the stack's other clean-up goes on. */
    static void unmount(java.util.Collection<FillableDisk> disks) {
        for (FillableDisk disk : disks) {
            try {
                disk.unmount();
            } catch (StackException e) {
                System.err.println("could not unmount " + disk.mountPoint() + " (umount it by hand): " + e.getMessage());
            }
        }
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
    public static LocalStack inContainers(StackLayout layout, StackContainers containers, Duration timeToReady, ServerLibraries libs,
                                   KafkaCredentials kafkaCredentials) {
        LocalStack stack = new LocalStack(layout, new NoWanEmulation("the stack runs in containers, without WAN emulation"), List.of(),
                Optional.of(containers), timeToReady, "--instance " + layout.settings().instance() + " (in containers)", libs, Path.of("java"),
                Optional.empty(), kafkaCredentials, Optional.empty(), Optional.empty(), Map.of());
        return stack.serving();
    }

    /** The stack, ready: its state file and its deployment outputs written, and stopped with this JVM unless detached. */
    LocalStack serving() {
        if (!processes.isEmpty()) {
            recordProcesses();
        }
        if (layout.settings().cassandra()) {
            // a Kafka-only stack has no deployment to point the harness at
            deploymentOutputs().write(layout.settings().workDir().resolve(DeploymentOutputs.LOCAL_STACK_FILE));
        }
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        return this;
    }

    /** Outages of single servers are drills on processes; the stack in containers does not offer them. */
    private ServerOutages outages(String what) {
        if (containers.isPresent()) {
            throw new StackException(what + " is not supported when the stack runs in containers (" + containers.get().describe() + ")");
        }
        return outages;
    }

    /** Writes the stack's state file anew: its launcher's and its servers' PIDs. */
    private void recordProcesses() {
        new StackState(ProcessHandle.current().pid(), processes.stream().map(ServerProcess::pid).toList(), settingsArgs).write(layout.settings().workDir());
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

    /**
     * A new driver session pinned to a region's DC (over TLS, trusting the stack's CA, and logged in as the
     * stack's superuser role, when the stack runs TLS); the caller closes it.
     */
    public CqlSession cqlSession(String region) {
        return Readiness.session(layout, tls, cqlLogin(CqlRoles.STACK), region);
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

    void writeBrokerTlsFiles() {
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
        return containers.map(StackContainers::describe).orElse("JVM processes on this machine");
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
