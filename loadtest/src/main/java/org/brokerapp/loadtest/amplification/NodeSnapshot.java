package org.brokerapp.loadtest.amplification;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One node's counters at one moment, or (after {@link #minus}) what they did in between.
 *
 * @param node              the node
 * @param clientWrites      writes it coordinated for clients, every keyspace ({@code ClientRequest} Write)
 * @param clientCasWrites   conditional writes (LWT) it coordinated, every keyspace ({@code ClientRequest} CASWrite)
 * @param coordinatorWrites per table of the measured keyspace: partition updates it coordinated ({@code CoordinatorWriteLatency})
 * @param replicaWrites     per table of the measured keyspace: partition updates applied on this replica ({@code WriteLatency})
 * @param paxosWrites       Paxos state rows it wrote ({@code system.paxos} WriteLatency): promises, acceptances, commits
 * @param outbound          per peer (as the metrics name it): internode messages and bytes sent, every connection type
 * @param cpuNanos          CPU time of the node's JVM
 * @param unmeteredPeers    (a delta only) peers whose counters did not survive the interval, so their traffic is unknown
 */
public record NodeSnapshot(NodeRef node, long clientWrites, long clientCasWrites, Map<String, Long> coordinatorWrites,
                           Map<String, Long> replicaWrites, long paxosWrites, Map<String, PeerTraffic> outbound, long cpuNanos,
                           Set<String> unmeteredPeers) {

    public NodeSnapshot {
        coordinatorWrites = Map.copyOf(coordinatorWrites);
        replicaWrites = Map.copyOf(replicaWrites);
        outbound = Map.copyOf(outbound);
        unmeteredPeers = Set.copyOf(unmeteredPeers);
    }

    public NodeSnapshot(NodeRef node, long clientWrites, long clientCasWrites, Map<String, Long> coordinatorWrites,
                        Map<String, Long> replicaWrites, long paxosWrites, Map<String, PeerTraffic> outbound, long cpuNanos) {
        this(node, clientWrites, clientCasWrites, coordinatorWrites, replicaWrites, paxosWrites, outbound, cpuNanos, Set.of());
    }

    /**
     * What happened since {@code earlier}; a table first seen in between started from zero. Cassandra
     * drops a peer's connection counters when it replaces that connection (seen at start-up under
     * load: the new connection's metrics are unregistered with the old one's), so a peer missing
     * from either snapshot, or whose counters went backwards, is unmetered rather than guessed.
     */
    public NodeSnapshot minus(NodeSnapshot earlier) {
        if (!node.equals(earlier.node)) {
            throw new IllegalArgumentException("snapshots of different nodes: " + node.name() + " and " + earlier.node.name());
        }
        Map<String, PeerTraffic> traffic = new TreeMap<>();
        Set<String> unmetered = new TreeSet<>(earlier.outbound.keySet());
        unmetered.addAll(outbound.keySet());
        outbound.forEach((peer, now) -> {
            PeerTraffic then = earlier.outbound.get(peer);
            PeerTraffic delta = then == null ? null : now.minus(then);
            if (delta != null && delta.messages() >= 0 && delta.bytes() >= 0) {
                traffic.put(peer, delta);
                unmetered.remove(peer);
            }
        });
        NodeSnapshot delta = new NodeSnapshot(node, clientWrites - earlier.clientWrites, clientCasWrites - earlier.clientCasWrites,
                minus(coordinatorWrites, earlier.coordinatorWrites), minus(replicaWrites, earlier.replicaWrites),
                paxosWrites - earlier.paxosWrites, traffic, cpuNanos - earlier.cpuNanos, unmetered);
        delta.requireNonNegative();
        return delta;
    }

    public long coordinatorWritesTotal() {
        return coordinatorWrites.values().stream().mapToLong(Long::longValue).sum();
    }

    public long replicaWritesTotal() {
        return replicaWrites.values().stream().mapToLong(Long::longValue).sum();
    }

    private static Map<String, Long> minus(Map<String, Long> now, Map<String, Long> earlier) {
        Map<String, Long> delta = new TreeMap<>();
        for (String key : new TreeSet<>(now.keySet())) {
            delta.put(key, now.get(key) - earlier.getOrDefault(key, 0L));
        }
        return delta;
    }

    // counters only grow while a node runs: a negative delta means it restarted in between
    private void requireNonNegative() {
        boolean negative = clientWrites < 0 || clientCasWrites < 0 || paxosWrites < 0 || cpuNanos < 0
                || coordinatorWrites.values().stream().anyMatch(v -> v < 0) || replicaWrites.values().stream().anyMatch(v -> v < 0);
        if (negative) {
            throw new IllegalStateException("counters of " + node.name() + " went backwards: did the node restart between the snapshots?");
        }
    }
}
