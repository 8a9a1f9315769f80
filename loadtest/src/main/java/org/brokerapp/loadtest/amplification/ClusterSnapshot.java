package org.brokerapp.loadtest.amplification;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Every node's counters for one keyspace at one moment; after {@link #minus}, over an interval. */
public record ClusterSnapshot(String keyspace, Instant at, Duration interval, List<NodeSnapshot> nodes) {

    public ClusterSnapshot {
        nodes = List.copyOf(nodes);
    }

    public static ClusterSnapshot at(String keyspace, Instant at, List<NodeSnapshot> nodes) {
        return new ClusterSnapshot(keyspace, at, Duration.ZERO, nodes);
    }

    public ClusterSnapshot minus(ClusterSnapshot earlier) {
        if (!keyspace.equals(earlier.keyspace)) {
            throw new IllegalArgumentException("snapshots of different keyspaces: " + keyspace + " and " + earlier.keyspace);
        }
        Map<String, NodeSnapshot> before = earlier.nodes.stream().collect(Collectors.toMap(n -> n.node().name(), Function.identity()));
        List<NodeSnapshot> deltas = nodes.stream().map(n -> {
            NodeSnapshot then = before.get(n.node().name());
            if (then == null) {
                throw new IllegalArgumentException("node " + n.node().name() + " is missing from the earlier snapshot");
            }
            return n.minus(then);
        }).toList();
        return new ClusterSnapshot(keyspace, at, Duration.between(earlier.at, at), deltas);
    }

    public List<NodeRef> nodeRefs() {
        return nodes.stream().map(NodeSnapshot::node).toList();
    }
}
