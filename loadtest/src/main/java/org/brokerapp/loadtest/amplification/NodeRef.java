package org.brokerapp.loadtest.amplification;

import org.brokerapp.infra.servers.CassandraNode;

/**
 * One Cassandra node as the meters see it.
 *
 * @param datacenter its DC
 * @param node       1-based index inside the DC
 * @param address    the address it listens on (and same-DC peers reach it at)
 * @param wanAddress the address other DCs reach it at (its WAN face; equal to {@code address} without WAN emulation)
 * @param jmxPort    its JMX port on 127.0.0.1
 */
public record NodeRef(String datacenter, int node, String address, String wanAddress, int jmxPort) {

    public static NodeRef of(CassandraNode node) {
        return new NodeRef(node.region().datacenter(), node.node(), node.address(), node.wanAddress(), node.jmxPort());
    }

    public String name() {
        return datacenter + "/" + node;
    }
}
