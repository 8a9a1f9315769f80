package org.brokerapp.loadtest.deployment;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLContext;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.ProcessCpu;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.servers.CassandraDisk;
import org.brokerapp.infra.servers.CqlRoles;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.stack.DiskFull;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.infra.stack.StackSettings;
import org.brokerapp.infra.tls.StackTls;
import org.brokerapp.loadtest.drill.Drill;
import org.brokerapp.loadtest.drill.Faults;
import org.brokerapp.regions.RegionsModel;

/**
 * The local stack with a broker per region from this build's jar. Either the harness starts the
 * stack itself ({@link #startStack}) and stops it on close, or it is given a running one (a test's
 * shared stack, {@link #attach}) and stops only the brokers it started.
 */
public final class LocalTarget implements Target, Faults {

    private final LocalStack stack;
    private final boolean ownsStack;
    private final BrokerProcesses brokers;

    private LocalTarget(LocalStack stack, boolean ownsStack, BrokerProcesses brokers) {
        this.stack = stack;
        this.ownsStack = ownsStack;
        this.brokers = brokers;
    }

    /** Starts stack instance {@code instance} in {@code workDir} (wiped first), then the brokers. */
    public static LocalTarget startStack(int instance, Path workDir, java.util.Optional<Path> regionsFile, java.util.OptionalInt nodesPerDc, Path brokerJar,
                                         int customers, List<String> brokerArgs, boolean tls, Optional<Drill> drill, int brokersPerRegion,
                                         Progress progress) {
        requireJar(brokerJar);
        // a disk drill's node keeps the disk's directory on a filesystem of its own; the clock-skew drill's broker runs on a clock it can step
        Map<String, CassandraDisk> fillableDisks = drill.flatMap(d -> d.filledDisk().map(disk -> Map.of(d.region(), disk))).orElse(Map.of());
        Set<String> steppableClocks = drill.filter(d -> d.kind() == Drill.Kind.CLOCK_SKEW).map(d -> Set.of(d.region())).orElse(Set.of());
        LocalStack stack = LocalStack.start(StackSettings.defaults(workDir, instance).withRegions(regionsFile).withNodesPerDc(nodesPerDc)
                        .withFillableDisks(fillableDisks).withTls(tls), true,
                "--work-dir " + workDir.toAbsolutePath() + " --instance " + instance + regionsFile.map(f -> " --regions " + f.toAbsolutePath()).orElse("")
                        + (nodesPerDc.isPresent() ? " --nodes-per-dc " + nodesPerDc.getAsInt() : "") + (tls ? " --tls" : ""), progress);
        try {
            List<String> args = new java.util.ArrayList<>(brokerArgs);
            args.add("--broker.regions-file=" + BrokersModel.write(regionsFile, nodesPerDc, stack.regions(), workDir.resolve("brokers-regions.yaml")));
            BrokerClocks clocks = steppableClocks.isEmpty() ? BrokerClocks.hosts() : BrokerClocks.steppable(steppableClocks, workDir.resolve("clocks"));
            return new LocalTarget(stack, true, startBrokers(stack, workDir.resolve("logs"), brokerJar, customers, args, clocks, brokersPerRegion,
                    progress));
        } catch (RuntimeException e) {
            stack.close();
            throw e;
        }
    }

    /** Starts brokers against a stack someone else runs (and stops); {@link #close} stops only the brokers. */
    public static LocalTarget attach(LocalStack stack, Path logs, Path brokerJar, int customers, List<String> brokerArgs, Progress progress) {
        requireJar(brokerJar);
        return new LocalTarget(stack, false, startBrokers(stack, logs, brokerJar, customers, brokerArgs, BrokerClocks.hosts(), 1, progress));
    }

    private static BrokerProcesses startBrokers(LocalStack stack, Path logs, Path jar, int customers, List<String> args, BrokerClocks clocks,
                                                int brokersPerRegion, Progress progress) {
        for (String region : stack.regions().names()) {
            TicksTopic.ensure(stack.kafkaClientConfig(region, KafkaAccess.ADMIN));
        }
        return BrokerProcesses.start(stack, jar, logs, customers, args, clocks, brokersPerRegion, progress);
    }

    private static void requireJar(Path jar) {
        if (!Files.exists(jar)) {
            throw new IllegalArgumentException("broker jar " + jar + " not found; build it with ./mvnw -q -pl loadtest -am install -DskipTests");
        }
    }

    @Override
    public RegionsModel regions() {
        return stack.regions();
    }

    @Override
    public Map<String, String> brokerUrls() {
        return brokers.urls();
    }

    @Override
    public Map<String, List<String>> brokerInstanceUrls() {
        return brokers.instanceUrls();
    }

    @Override
    public Map<String, Object> tickKafka(String region) {
        return stack.kafkaClientConfig(region, KafkaAccess.FEED);
    }

    @Override
    public Optional<CqlEndpoint> cql(String region) {
        return Optional.of(new CqlEndpoint(stack.cqlContactPoints(region), stack.localDatacenter(region), trust(), stack.cqlLogin(CqlRoles.STACK)));
    }

    @Override
    public Optional<WanEcho> wanEcho(String region) {
        int index = stack.regions().names().indexOf(region) + 1;
        if (!stack.wanEmulated() || index == 0) {
            return Optional.empty();
        }
        AddressPlan plan = stack.layout().settings().addresses();
        return Optional.of(new WanEcho(new InetSocketAddress(plan.brokerAddress(index), AddressPlan.WAN_ECHO_PORT),
                new InetSocketAddress(plan.brokerWanAddress(index), AddressPlan.WAN_ECHO_PORT)));
    }

    @Override
    public Optional<SSLContext> trust() {
        return stack.tls().map(StackTls::clientContext);
    }

    @Override
    public String describe() {
        return "local stack instance " + stack.layout().settings().instance() + " (" + stack.regions().names().size() + " regions, "
                + stack.layout().cassandra().size() + " Cassandra nodes, WAN " + (stack.wanEmulated() ? "emulated" : "NOT emulated")
                + "), brokers " + brokers.urls();
    }

    @Override
    public boolean wanEmulated() {
        return stack.wanEmulated();
    }

    public LocalStack stack() {
        return stack;
    }

    /** Every process of the run on this machine, pid to kind: the stack's servers, the brokers, and the harness itself. */
    public Map<Long, ProcessCpu.Kind> processKinds() {
        Map<Long, ProcessCpu.Kind> kinds = new LinkedHashMap<>();
        stack.processes().forEach(p -> kinds.put(p.pid(), ProcessCpu.kindOf(p.pid())));
        brokers.pids().values().forEach(pid -> kinds.put(pid, ProcessCpu.Kind.BROKER));
        kinds.put(ProcessHandle.current().pid(), ProcessCpu.Kind.HARNESS);
        return kinds;
    }

    @Override
    public void close() {
        try {
            brokers.close();
        } finally {
            if (ownsStack) {
                stack.close();
            }
        }
    }

    @Override
    public void killBroker(String region) {
        brokers.kill(region);
    }

    @Override
    public Optional<java.time.Duration> awaitBrokerTakeOver(String region) {
        return brokers.awaitTakeOver(region);
    }

    @Override
    public java.time.Duration restartBroker(String region) {
        return brokers.restart(region);
    }

    @Override
    public void killCassandraNode(String region) {
        stack.killCassandra(stack.drillableCassandraNode(region));
    }

    @Override
    public java.time.Duration restartCassandraNode(String region) {
        return stack.restartCassandra(stack.drillableCassandraNode(region));
    }

    @Override
    public String fillCassandraDisk(String region) {
        String node = stack.drillableCassandraNode(region);
        DiskFull full = stack.fillDisk(node);
        String error = full.error().map(e -> ", logging '" + e + "'").orElse(", logging no error");
        return full.downAfter()
                .map(d -> node + " out of the cluster " + Drill.seconds(d) + " after the fill began (" + full.filledBytes() / (1 << 20) + " MB)" + error)
                .orElse(node + " still up " + LocalStack.DISK_FULL_TIMEOUT.toSeconds() + " s after the fill began" + error);
    }

    @Override
    public java.time.Duration freeCassandraDisk(String region) {
        return stack.freeDiskAndRestart(stack.drillableCassandraNode(region));
    }

    @Override
    public void killKafka(String region) {
        stack.killKafka(region);
    }

    @Override
    public java.time.Duration restartKafka(String region) {
        return stack.restartKafka(region);
    }

    @Override
    public void stepBrokerClock(String region, java.time.Duration offset) {
        brokers.stepClock(region, offset);
    }

    @Override
    public void cut(String region) {
        stack.cut(region);
    }

    @Override
    public void heal(String region) {
        stack.heal(region);
    }
}
