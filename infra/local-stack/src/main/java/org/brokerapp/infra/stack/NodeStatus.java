package org.brokerapp.infra.stack;

/**
 * A node as another node's gossip sees it, as {@code nodetool status} would print it.
 *
 * @param address    the address the node announces to the cluster (its WAN face)
 * @param datacenter the DC the cluster places it in
 * @param up         gossip considers it alive
 * @param normal     it owns its tokens: neither joining, leaving nor moving
 */
public record NodeStatus(String address, String datacenter, boolean up, boolean normal) {

    /** {@code UN} for up and normal, as nodetool prints it; {@code D?} down, {@code ?J} joining etc. collapse to {@code ?}. */
    public String code() {
        return (up ? "U" : "D") + (normal ? "N" : "?");
    }
}
