package org.brokerapp.loadtest.amplification;

import java.util.Map;
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
 */
public record NodeSnapshot(NodeRef node, long clientWrites, long clientCasWrites, Map<String, Long> coordinatorWrites,
                           Map<String, Long> replicaWrites, long paxosWrites, Map<String, PeerTraffic> outbound, long cpuNanos) {

    public NodeSnapshot {
        coordinatorWrites = Map.copyOf(coordinatorWrites);
        replicaWrites = Map.copyOf(replicaWrites);
        outbound = Map.copyOf(outbound);
    }

    /** What happened since {@code earlier}; a table or peer first seen in between started from zero. */
    public NodeSnapshot minus(NodeSnapshot earlier) {
        if (!node.equals(earlier.node)) {
            throw new IllegalArgumentException("snapshots of different nodes: " + node.name() + " and " + earlier.node.name());
        }
        Map<String, PeerTraffic> traffic = new TreeMap<>();
        outbound.forEach((peer, now) -> traffic.put(peer, now.minus(earlier.outbound.getOrDefault(peer, PeerTraffic.NONE))));
        NodeSnapshot delta = new NodeSnapshot(node, clientWrites - earlier.clientWrites, clientCasWrites - earlier.clientCasWrites,
                minus(coordinatorWrites, earlier.coordinatorWrites), minus(replicaWrites, earlier.replicaWrites),
                paxosWrites - earlier.paxosWrites, traffic, cpuNanos - earlier.cpuNanos);
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
                || coordinatorWrites.values().stream().anyMatch(v -> v < 0) || replicaWrites.values().stream().anyMatch(v -> v < 0)
                || outbound.values().stream().anyMatch(t -> t.messages() < 0 || t.bytes() < 0);
        if (negative) {
            throw new IllegalStateException("counters of " + node.name() + " went backwards: did the node restart between the snapshots?");
        }
    }
}
