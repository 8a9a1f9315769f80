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
 * @param cassandraInstanceType the EC2 instance type of this DC's nodes when Terraform provisions it (e.g.
 *                       {@code m6i.large}); {@code null} when the file gives none (Terraform's default
 *                       applies, see {@code terraform/modules/regions-plan}). The local stack ignores it.
 * @param vpcCidr        the region's VPC address block on AWS (e.g. {@code 10.64.0.0/16}), fixed by the region's name
 *                       rather than its place in the file, so removing a region changes no other; {@code null} when the
 *                       file gives none (Terraform then refuses to plan it). The local stack ignores it.
 */
public record Region(String name, String georegion, String datacenter, List<String> exchanges, int cassandraNodes,
                     String cassandraInstanceType, String vpcCidr) {

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
        if (cassandraInstanceType != null && !cassandraInstanceType.matches("[a-z][a-z0-9-]*\\.[a-z0-9]+")) {
            throw new InvalidRegionsException("region " + name + ": cassandra-instance-type must be an EC2 instance type such as m6i.large, was '"
                    + cassandraInstanceType + "'");
        }
        if (vpcCidr != null && !vpcCidr.matches("(\\d{1,3}\\.){3}\\d{1,3}/(1[6-9]|20)")) {
            throw new InvalidRegionsException("region " + name + ": vpc-cidr must be an IPv4 block from /16 to /20 such as 10.64.0.0/16, was '"
                    + vpcCidr + "'");
        }
    }

    /** A region without an EC2 instance type of its own (Terraform's default applies). */
    public Region(String name, String georegion, String datacenter, List<String> exchanges, int cassandraNodes) {
        this(name, georegion, datacenter, exchanges, cassandraNodes, null, null);
    }

    /** Replication factor of this region's DC: as many replicas as nodes, at most three. */
    public int replicationFactor() {
        return Math.min(MAX_CASSANDRA_NODES, cassandraNodes);
    }

    public boolean isHomeOf(String exchange) {
        return exchanges.contains(exchange);
    }

    Region withCassandraNodes(int nodes) {
        return new Region(name, georegion, datacenter, exchanges, nodes, cassandraInstanceType, vpcCidr);
    }

    static void requireText(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new InvalidRegionsException(what + " is missing");
        }
    }
}
