package org.brokerapp.regions;

import java.util.List;

/**
 * One georegion of the deployment: a broker, a Kafka and a Cassandra data center live there, and
 * the symbols of its exchanges have their home there.
 *
 * @param name           AWS region id, e.g. {@code us-east-1}; also the Spring profile of its broker
 * @param georegion      where it is, for people, e.g. {@code North Virginia}
 * @param datacenter     Cassandra data center name used in NetworkTopologyStrategy replication
 * @param exchanges      exchanges whose symbols are homed (matched) in this region; a regions file lists at
 *                       least one, a model with exchanges failed over elsewhere may have none
 * @param cassandraNodes Cassandra nodes in this region's DC, 1 to 3
 */
public record Region(String name, String georegion, String datacenter, List<String> exchanges, int cassandraNodes) {

    public static final int MAX_CASSANDRA_NODES = 3;

    public Region {
        requireText(name, "regions[].name");
        requireText(datacenter, "regions[" + name + "].datacenter");
        georegion = georegion == null ? name : georegion;
        exchanges = exchanges == null ? List.of() : List.copyOf(exchanges);
        if (cassandraNodes < 1 || cassandraNodes > MAX_CASSANDRA_NODES) {
            throw new InvalidRegionsException("region " + name + ": cassandra-nodes must be 1 to "
                    + MAX_CASSANDRA_NODES + ", was " + cassandraNodes);
        }
    }

    /** Replication factor of this region's DC: as many replicas as nodes, at most three. */
    public int replicationFactor() {
        return Math.min(MAX_CASSANDRA_NODES, cassandraNodes);
    }

    public boolean isHomeOf(String exchange) {
        return exchanges.contains(exchange);
    }

    Region withCassandraNodes(int nodes) {
        return new Region(name, georegion, datacenter, exchanges, nodes);
    }

    static void requireText(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new InvalidRegionsException(what + " is missing");
        }
    }
}
