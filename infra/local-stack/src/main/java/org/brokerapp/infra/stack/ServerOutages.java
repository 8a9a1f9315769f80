package org.brokerapp.infra.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.brokerapp.infra.host.ServerLibraries;
import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.CassandraDisk;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.ElasticsearchNode;
import org.brokerapp.infra.servers.FillableDisk;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.servers.KafkaBroker;
import org.brokerapp.infra.servers.KafkaCredentials;
import org.brokerapp.infra.tls.StackTls;
import org.brokerapp.regions.KafkaCredential;

/**
 * Outages of single servers, as drills make them: a node killed, paused or restarted on its data, a disk filled, a
 * region's Kafka or Elasticsearch stopped and started again. On the stack's own processes only; {@link LocalStack}
 * refuses them for a stack in containers.
 */
final class ServerOutages {

    private final StackLayout layout;
    private final List<ServerProcess> processes;
    private final Path java;
    private final ServerLibraries libs;
    private final Optional<StackTls> tls;
    private final KafkaCredentials kafkaCredentials;
    private final Map<String, FillableDisk> fillableDisks;
    /** Writes the stack's state file anew, after a server's process changed. */
    private final Runnable recordProcesses;

    ServerOutages(StackLayout layout, List<ServerProcess> processes, Path java, ServerLibraries libs, Optional<StackTls> tls,
                  KafkaCredentials kafkaCredentials, Map<String, FillableDisk> fillableDisks, Runnable recordProcesses) {
        this.layout = layout;
        this.processes = processes;
        this.java = java;
        this.libs = libs;
        this.tls = tls;
        this.kafkaCredentials = kafkaCredentials;
        this.fillableDisks = fillableDisks;
        this.recordProcesses = recordProcesses;
    }

    /**
     * Fills the disk of a node the stack runs on a {@link FillableDisk} ({@link StackSettings#fillableDisks}) and waits
     * until the other nodes of its DC see it down or {@link #LocalStack.DISK_FULL_TIMEOUT} has passed. A full data disk is met by the
     * flush this asks for ({@code disk_failure_policy: stop} stops the node's gossip and CQL); a full commit log disk by
     * the next write the node takes ({@code commit_failure_policy: stop}): no flush then, since a flush would free
     * commit log segments.
     */
    DiskFull fillDisk(String name) {
        CassandraNode node = cassandraNode(name);
        FillableDisk disk = Optional.ofNullable(fillableDisks.get(name))
                .orElseThrow(() -> new StackException(name + " does not keep its data on a fillable disk (the stack was not started for a disk-full drill)"));
        long logBefore = ServerLogs.sizeOf(node.systemLog());
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
        while (down.isEmpty() && System.nanoTime() - start < LocalStack.DISK_FULL_TIMEOUT.toNanos()) {
            if (peers.stream().allMatch(peer -> seesDown(peer, node))) {
                down = Optional.of(Duration.ofNanos(System.nanoTime() - start));
            } else {
                ServerProcess.sleep(Duration.ofMillis(200));
            }
        }
        Optional<String> crash = node.crashReports().stream().filter(r -> !crashesBefore.contains(r)).findFirst().flatMap(ServerLogs::crashSummary);
        return new DiskFull(filled, down, crash.or(() -> ServerLogs.diskErrorAfter(node.systemLog(), logBefore)));
    }

    /** Frees the disk {@link #fillDisk} filled, and restarts the node on its data: the time until the cluster sees it up again. */
    synchronized Duration freeDiskAndRestart(String name) {
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

    private CassandraNode cassandraNode(String name) {
        return layout.cassandra().stream().filter(n -> n.name().equals(name)).findFirst()
                .orElseThrow(() -> new StackException("no Cassandra node " + name + " in this stack"));
    }

    /** Kills a Cassandra node as a crash would (SIGKILL); {@link #restartCassandra} starts it again on its data. */
    void killCassandra(String name) {
        processes.stream().filter(p -> p.name().equals(name)).forEach(ServerProcess::kill);
    }

    /**
     * Holds a Cassandra node where it is (SIGSTOP): it keeps its connections but answers nothing, so
     * the writes that need it time out; {@link #resumeCassandra} lets it go on.
     */
    void pauseCassandra(String name) {
        cassandraNode(name);
        processes.stream().filter(p -> p.name().equals(name)).forEach(ServerProcess::pause);
    }

    void resumeCassandra(String name) {
        processes.stream().filter(p -> p.name().equals(name)).forEach(ServerProcess::resume);
    }

    /**
     * Starts a Cassandra node again after {@link #killCassandra}, on its data (commit log replayed),
     * and waits until it has started again and every node of the cluster sees every other up.
     *
     * @return the time from the start to that
     */
    synchronized Duration restartCassandra(String name) {
        CassandraNode node = cassandraNode(name);
        long start = System.nanoTime();
        long logBefore = ServerLogs.sizeOf(node.systemLog());
        processes.removeIf(p -> p.name().equals(name) && !p.isAlive());
        ServerProcess process = node.start(java, libs, layout.settings().metrics(), tls, false);
        processes.add(process);
        process.awaitReady(() -> ServerLogs.logContainsAfter(node.systemLog(), logBefore, CassandraNode.READY_MARKER), "'" + CassandraNode.READY_MARKER
                + "' in a new part of " + node.systemLog(), CassandraNode.START_TIMEOUT);
        ClusterProbe.awaitAllUpNormal(layout.cassandra(), LocalStack.CLUSTER_READY_TIMEOUT);
        recordProcesses.run();
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** Kills a region's Kafka broker as a crash would (SIGKILL); {@link #restartKafka} starts it again on its data. */
    void killKafka(String region) {
        String name = layout.kafkaIn(region).name();
        processes.stream().filter(p -> p.name().equals(name)).forEach(ServerProcess::kill);
    }

    /**
     * Starts a region's Kafka broker again after {@link #killKafka}, on the data, credentials and ACLs
     * it had, and waits until it accepts clients again (a killed broker first recovers its logs).
     *
     * @return the time from the start to accepting clients
     */
    synchronized Duration restartKafka(String region) {
        KafkaBroker broker = layout.kafkaIn(region);
        long start = System.nanoTime();
        processes.removeIf(p -> p.name().equals(broker.name()) && !p.isAlive());
        ServerProcess process = broker.restart(java, libs, layout.settings().metrics());
        processes.add(process);
        KafkaCredential admin = kafkaCredentials.of(KafkaAccess.ADMIN);
        process.awaitReady(() -> {
            try {
                Readiness.awaitKafkaAccepting(broker, admin, tls.map(StackTls::kafkaTrust));
                return true;
            } catch (StackException e) {
                return false;
            }
        }, "a cluster description for the admin", KafkaBroker.START_TIMEOUT);
        recordProcesses.run();
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** Stops a region's Elasticsearch node (SIGTERM), as an outage; {@link #startElasticsearch} brings it back with its data. */
    void stopElasticsearch(String region) {
        String name = layout.elasticsearchIn(region).name();
        processes.stream().filter(p -> p.name().equals(name)).forEach(p -> p.stop(LocalStack.STOP_GRACE));
    }

    /** Starts a region's Elasticsearch node again after {@link #stopElasticsearch}, and waits until it answers. */
    synchronized void startElasticsearch(String region) {
        ElasticsearchNode node = layout.elasticsearchIn(region);
        processes.removeIf(p -> p.name().equals(node.name()) && !p.isAlive());
        ServerProcess process = node.start(java, libs);
        processes.add(process);
        node.awaitReady(process);
        recordProcesses.run();
    }
}
