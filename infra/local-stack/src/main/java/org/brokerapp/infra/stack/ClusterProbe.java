package org.brokerapp.infra.stack;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.CassandraNode;

/**
 * Asks each Cassandra node, over JMX, what {@code nodetool status} would show: which nodes its
 * gossip sees up, which are in a normal state, and in which DC the snitch places them; and has a
 * node flush, as {@code nodetool flush} would.
 */
public final class ClusterProbe {

    private static final ObjectName STORAGE_SERVICE = objectName("org.apache.cassandra.db:type=StorageService");
    private static final ObjectName SNITCH = objectName("org.apache.cassandra.db:type=EndpointSnitchInfo");

    private ClusterProbe() {
    }

    /** The cluster as {@code observer} sees it: every node it knows of, live or not. */
    @SuppressWarnings("unchecked")
    public static List<NodeStatus> viewFrom(CassandraNode observer) {
        try (JMXConnector connector = connect(observer)) {
            MBeanServerConnection jmx = connector.getMBeanServerConnection();
            Set<String> live = new HashSet<>((List<String>) jmx.getAttribute(STORAGE_SERVICE, "LiveNodes"));
            Set<String> unreachable = new HashSet<>((List<String>) jmx.getAttribute(STORAGE_SERVICE, "UnreachableNodes"));
            Set<String> changing = new HashSet<>();
            for (String attribute : List.of("JoiningNodes", "LeavingNodes", "MovingNodes")) {
                changing.addAll((List<String>) jmx.getAttribute(STORAGE_SERVICE, attribute));
            }
            boolean observerNormal = "NORMAL".equals(jmx.getAttribute(STORAGE_SERVICE, "OperationMode"));
            Set<String> all = new HashSet<>(live);
            all.addAll(unreachable);
            all.addAll(changing);
            List<NodeStatus> view = new ArrayList<>();
            for (String address : all) {
                String dc = (String) jmx.invoke(SNITCH, "getDatacenter", new Object[] {address}, new String[] {String.class.getName()});
                boolean normal = !changing.contains(address) && (!address.equals(observer.wanAddress()) || observerNormal);
                view.add(new NodeStatus(address, dc, live.contains(address) && !unreachable.contains(address), normal));
            }
            view.sort((a, b) -> a.address().compareTo(b.address()));
            return view;
        } catch (IOException | JMException e) {
            throw new StackException(observer.name() + " does not answer on JMX port " + observer.jmxPort() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Has {@code node} write every memtable of every keyspace to its data directory, and returns once it has tried; a
     * flush that failed is for the node's log to tell (a full disk, say).
     */
    static void flushAll(CassandraNode node) {
        try (JMXConnector connector = connect(node)) {
            MBeanServerConnection jmx = connector.getMBeanServerConnection();
            @SuppressWarnings("unchecked")
            List<String> keyspaces = (List<String>) jmx.getAttribute(STORAGE_SERVICE, "Keyspaces");
            for (String keyspace : keyspaces) {
                jmx.invoke(STORAGE_SERVICE, "forceKeyspaceFlush", new Object[] {keyspace, new String[0]},
                        new String[] {String.class.getName(), String[].class.getName()});
            }
        } catch (IOException | JMException | RuntimeException e) {
            // the node's log says why
        }
    }

    private static JMXConnector connect(CassandraNode node) {
        try {
            return JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + node.jmxPort() + "/jmxrmi"), Map.of());
        } catch (IOException e) {
            throw new StackException(node.name() + " does not answer on JMX port " + node.jmxPort() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Each node's own schema version, as the node answers it (what {@code nodetool describecluster} groups
     * by), not as gossip or a driver last heard it: one version means every node has applied every change.
     */
    static Map<String, String> schemaVersions(List<CassandraNode> nodes) {
        Map<String, String> versions = new TreeMap<>();
        for (CassandraNode node : nodes) {
            try (JMXConnector connector = connect(node)) {
                versions.put(node.name(), (String) connector.getMBeanServerConnection().getAttribute(STORAGE_SERVICE, "SchemaVersion"));
            } catch (IOException | JMException e) {
                throw new StackException(node.name() + " does not answer on JMX port " + node.jmxPort() + ": " + e.getMessage(), e);
            }
        }
        return versions;
    }

    static void awaitSchemaAgreement(List<CassandraNode> nodes, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, String> versions;
        while (new HashSet<>((versions = schemaVersions(nodes)).values()).size() > 1) {
            if (System.nanoTime() > deadline) {
                throw new StackException("the Cassandra nodes do not agree on the schema after " + timeout.toSeconds() + " s: " + versions);
            }
            ServerProcess.sleep(Duration.ofMillis(200));
        }
    }

    /** True when every node sees every node (itself included) up, normal, and in its configured DC. */
    static boolean allUpNormal(List<CassandraNode> nodes) {
        return whatIsNotUpNormal(nodes).isEmpty();
    }

    /** What keeps the cluster from being all up and normal, as one observer saw it; empty when nothing does. */
    static Optional<String> whatIsNotUpNormal(List<CassandraNode> nodes) {
        for (CassandraNode observer : nodes) {
            List<NodeStatus> view;
            try {
                view = viewFrom(observer);
            } catch (StackException e) {
                return Optional.of(e.getMessage());
            }
            for (CassandraNode node : nodes) {
                Optional<NodeStatus> seen = view.stream().filter(s -> s.address().equals(node.wanAddress())).findFirst();
                boolean ok = seen.filter(s -> s.up() && s.normal() && s.datacenter().equals(node.region().datacenter())).isPresent();
                if (!ok) {
                    return Optional.of(observer.name() + " sees " + node.name() + " (" + node.wanAddress() + ") "
                            + seen.map(s -> s.code() + " in " + s.datacenter()).orElse("nowhere"));
                }
            }
        }
        return Optional.empty();
    }

    public static void awaitAllUpNormal(List<CassandraNode> nodes, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<String> missing;
        while ((missing = whatIsNotUpNormal(nodes)).isPresent()) {
            if (System.nanoTime() > deadline) {
                throw new StackException("not every Cassandra node sees every other up and normal after " + timeout.toSeconds() + " s; last: "
                        + missing.get());
            }
            ServerProcess.sleep(Duration.ofMillis(500));
        }
    }

    private static ObjectName objectName(String name) {
        try {
            return new ObjectName(name);
        } catch (JMException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
