package org.brokerapp.loadtest.amplification;

import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import org.brokerapp.infra.stack.LocalStack;

/**
 * Reads write amplification where it happens: from each Cassandra node's own metrics, over JMX
 * (127.0.0.1, as the local stack binds it). Take a {@link #snapshot()} before and after a run and
 * hand both to {@link WriteAmplification#between}.
 *
 * <p>Which metric counts what, checked against Cassandra 5.0.9 (plain, conditional and batched
 * writes into a 1 + 1 node keyspace, every counter diffed):
 * <ul>
 * <li>a table's {@code WriteLatency} count grows by one per partition update applied on that
 *     replica, whoever coordinated it (a mutation touching two tables counts twice); a Paxos
 *     commit applies one;</li>
 * <li>a table's {@code CoordinatorWriteLatency} counts the plain (non-conditional) requests the node
 *     coordinated that wrote the table: once per request, however many of the table's partitions it
 *     wrote (a batch of ten last prices counts one; a batch of a ledger row and an open_orders row one
 *     in each table); conditional writes appear only in {@code ClientRequest,scope=CASWrite};</li>
 * <li>{@code system.paxos} WriteLatency: a LOCAL_SERIAL write stores promise, acceptance and commit
 *     on each replica of the coordinator's DC (3 rows) and the commit on each remote replica (1);</li>
 * <li>{@code Connection,scope=<peer>_7000} Small/Large/UrgentMessageCompletedTasks and Bytes: what
 *     this node sent to that peer (Gossip is an alias of Urgent and is not added twice).</li>
 * </ul>
 */
public final class ClusterMeters {

    private static final String METRICS = "org.apache.cassandra.metrics:";
    private static final List<String> CONNECTION_TYPES = List.of("Small", "Large", "Urgent");

    private final List<NodeRef> nodes;
    private final String keyspace;

    public ClusterMeters(List<NodeRef> nodes, String keyspace) {
        this.nodes = List.copyOf(nodes);
        this.keyspace = keyspace;
    }

    /** Meters every Cassandra node of a local stack, for writes into {@code keyspace}. */
    public static ClusterMeters of(LocalStack stack, String keyspace) {
        return new ClusterMeters(stack.layout().cassandra().stream().map(NodeRef::of).toList(), keyspace);
    }

    public List<NodeRef> nodes() {
        return nodes;
    }

    public ClusterSnapshot snapshot() {
        return ClusterSnapshot.at(keyspace, Instant.now(), nodes.stream().map(this::read).toList());
    }

    private NodeSnapshot read(NodeRef node) {
        try (JMXConnector connector = JMXConnectorFactory.connect(
                new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + node.jmxPort() + "/jmxrmi"), Map.of())) {
            MBeanServerConnection jmx = connector.getMBeanServerConnection();
            return new NodeSnapshot(node,
                    count(jmx, METRICS + "type=ClientRequest,scope=Write,name=Latency"),
                    count(jmx, METRICS + "type=ClientRequest,scope=CASWrite,name=Latency"),
                    perTable(jmx, "CoordinatorWriteLatency"),
                    perTable(jmx, "WriteLatency"),
                    count(jmx, METRICS + "type=Table,keyspace=system,scope=paxos,name=WriteLatency"),
                    outbound(jmx),
                    ((Number) jmx.getAttribute(new ObjectName("java.lang:type=OperatingSystem"), "ProcessCpuTime")).longValue());
        } catch (IOException | JMException e) {
            throw new IllegalStateException("cannot read the metrics of " + node.name() + " on JMX port " + node.jmxPort() + ": " + e.getMessage(), e);
        }
    }

    private Map<String, Long> perTable(MBeanServerConnection jmx, String metric) throws IOException, JMException {
        Map<String, Long> counts = new TreeMap<>();
        for (ObjectName name : jmx.queryNames(new ObjectName(METRICS + "type=Table,keyspace=" + keyspace + ",scope=*,name=" + metric), null)) {
            counts.put(name.getKeyProperty("scope"), ((Number) jmx.getAttribute(name, "Count")).longValue());
        }
        return counts;
    }

    private static Map<String, PeerTraffic> outbound(MBeanServerConnection jmx) throws IOException, JMException {
        Map<String, long[]> sums = new HashMap<>();
        Set<ObjectName> names = jmx.queryNames(new ObjectName(METRICS + "type=Connection,scope=*,name=*"), null);
        for (ObjectName name : names) {
            String metric = name.getKeyProperty("name");
            for (String type : CONNECTION_TYPES) {
                boolean messages = metric.equals(type + "MessageCompletedTasks");
                if (messages || metric.equals(type + "MessageCompletedBytes")) {
                    long value = ((Number) jmx.getAttribute(name, "Value")).longValue();
                    sums.computeIfAbsent(name.getKeyProperty("scope"), peer -> new long[2])[messages ? 0 : 1] += value;
                }
            }
        }
        Map<String, PeerTraffic> traffic = new TreeMap<>();
        sums.forEach((peer, sum) -> traffic.put(peer, new PeerTraffic(sum[0], sum[1])));
        return traffic;
    }

    private static long count(MBeanServerConnection jmx, String name) throws IOException, JMException {
        return ((Number) jmx.getAttribute(new ObjectName(name), "Count")).longValue();
    }
}
