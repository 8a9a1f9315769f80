package org.brokerapp.loadtest.amplification;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.brokerapp.regions.RegionsModel;

/**
 * Write amplification measured over an interval, per DC, beside theory: every client mutation is
 * applied once on each replica of each DC, so a DC should apply {@code RF(dc)} partition updates per
 * client mutation, and the cluster {@code sum of RF}.
 *
 * @param keyspace    the keyspace measured
 * @param interval    between the two snapshots
 * @param trades      trades (fills) completed in the interval, as counted by the caller
 * @param dcs         per DC, in the regions model's order
 * @param unknownPeers peers the metrics named that are not nodes of the deployment (their traffic is left out)
 * @param unmeteredLinks cross-DC links ({@code from -> to}) whose counters were missing or reset: their traffic is unknown
 */
public record WriteAmplification(String keyspace, Duration interval, long trades, List<DcAmplification> dcs, Set<String> unknownPeers,
                                 Set<String> unmeteredLinks) {

    public WriteAmplification {
        dcs = List.copyOf(dcs);
        // sorted, so the tables and messages naming them read the same every run
        unknownPeers = Collections.unmodifiableSortedSet(new TreeSet<>(unknownPeers));
        unmeteredLinks = Collections.unmodifiableSortedSet(new TreeSet<>(unmeteredLinks));
    }

    public static WriteAmplification between(ClusterSnapshot before, ClusterSnapshot after, long trades, RegionsModel regions) {
        ClusterSnapshot delta = after.minus(before);
        PeerDirectory directory = new PeerDirectory(delta.nodeRefs());
        Map<String, PeerTraffic> in = new LinkedHashMap<>();
        Set<String> unknown = new TreeSet<>();
        Set<String> unmetered = new TreeSet<>();
        for (NodeSnapshot node : delta.nodes()) {
            for (NodeRef to : delta.nodeRefs()) {
                boolean metered = node.outbound().keySet().stream().anyMatch(peer -> directory.resolve(peer).filter(to::equals).isPresent());
                if (!to.datacenter().equals(node.node().datacenter()) && !metered) {
                    unmetered.add(node.node().name() + " -> " + to.name());
                }
            }
            node.outbound().forEach((peer, traffic) -> directory.resolve(peer).ifPresentOrElse(
                    to -> {
                        if (!to.datacenter().equals(node.node().datacenter())) {
                            in.merge(to.datacenter(), traffic, PeerTraffic::plus);
                        }
                    },
                    () -> unknown.add(peer)));
        }
        List<DcAmplification> dcs = new ArrayList<>();
        regions.replicationFactors().forEach((dc, rf) -> {
            List<NodeSnapshot> nodes = delta.nodes().stream().filter(n -> n.node().datacenter().equals(dc)).toList();
            Map<String, Long> byTable = new TreeMap<>();
            PeerTraffic out = PeerTraffic.NONE;
            for (NodeSnapshot node : nodes) {
                node.replicaWrites().forEach((table, count) -> byTable.merge(table, count, Long::sum));
                for (Map.Entry<String, PeerTraffic> peer : node.outbound().entrySet()) {
                    boolean crossDc = directory.resolve(peer.getKey()).map(to -> !to.datacenter().equals(dc)).orElse(false);
                    out = crossDc ? out.plus(peer.getValue()) : out;
                }
            }
            dcs.add(new DcAmplification(dc, nodes.size(), rf,
                    nodes.stream().mapToLong(NodeSnapshot::coordinatorWritesTotal).sum(),
                    nodes.stream().mapToLong(NodeSnapshot::clientCasWrites).sum(),
                    nodes.stream().mapToLong(NodeSnapshot::replicaWritesTotal).sum(), byTable,
                    nodes.stream().mapToLong(NodeSnapshot::paxosWrites).sum(),
                    out, in.getOrDefault(dc, PeerTraffic.NONE),
                    nodes.stream().mapToLong(NodeSnapshot::cpuNanos).sum() / 1e9,
                    unmetered.stream().noneMatch(link -> link.startsWith(dc + "/") || link.contains("-> " + dc + "/"))));
        });
        return new WriteAmplification(delta.keyspace(), delta.interval(), trades, dcs, unknown, unmetered);
    }

    /** Client mutations of the whole cluster: each was coordinated in exactly one DC. */
    public long clientMutations() {
        return dcs.stream().mapToLong(DcAmplification::clientMutations).sum();
    }

    public long replicaWrites() {
        return dcs.stream().mapToLong(DcAmplification::replicaWrites).sum();
    }

    /** Theory: each client mutation lands on every replica, RF per DC, summed over the DCs. */
    public int theoreticalFactor() {
        return dcs.stream().mapToInt(DcAmplification::replicationFactor).sum();
    }

    /** Measured: replica writes per client mutation, whole cluster. */
    public double measuredFactor() {
        return ratio(replicaWrites(), clientMutations());
    }

    /** Measured for one DC: its replica writes per client mutation of the whole cluster (theory: its RF). */
    public double measuredFactor(DcAmplification dc) {
        return ratio(dc.replicaWrites(), clientMutations());
    }

    public double perTrade(long count) {
        return ratio(count, trades);
    }

    public double cpuSecondsPerNodePerThousandTrades(DcAmplification dc) {
        return dc.nodes() == 0 ? Double.NaN : ratio(dc.cpuSeconds() / dc.nodes() * 1000, trades);
    }

    public boolean crossDcMetered() {
        return unmeteredLinks.isEmpty();
    }

    public PeerTraffic crossDcTraffic() {
        return dcs.stream().map(DcAmplification::crossDcOut).reduce(PeerTraffic.NONE, PeerTraffic::plus);
    }

    /** Every table written in the interval, in name order. */
    public Set<String> tables() {
        Set<String> tables = new TreeSet<>();
        dcs.forEach(dc -> dc.replicaWritesByTable().forEach((table, writes) -> {
            if (writes > 0) {
                tables.add(table);
            }
        }));
        return tables;
    }

    private static double ratio(double count, double per) {
        return per == 0 ? Double.NaN : count / per;
    }
}
