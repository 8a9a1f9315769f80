package org.brokerapp.loadtest.amplification;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which node a peer named by Cassandra's metrics is. Peers in another DC are reached at their WAN
 * face (a toxiproxy address), peers in the same DC at their own address ({@code prefer_local}), and
 * the metrics name them {@code 127.7.2.11_7000}-style; both addresses map back to the node.
 */
public final class PeerDirectory {

    private final Map<String, NodeRef> byAddress = new HashMap<>();

    public PeerDirectory(List<NodeRef> nodes) {
        for (NodeRef node : nodes) {
            byAddress.put(node.address(), node);
            byAddress.put(node.wanAddress(), node);
        }
    }

    /** The node behind a peer name such as {@code 127.7.2.11_7000}, {@code /127.7.2.11:7000} or {@code 127.7.2.11}. */
    public Optional<NodeRef> resolve(String peer) {
        return Optional.ofNullable(byAddress.get(host(peer)));
    }

    static String host(String peer) {
        String host = peer.startsWith("/") ? peer.substring(1) : peer;
        int port = Math.max(host.lastIndexOf('_'), host.lastIndexOf(':'));
        return port > 0 ? host.substring(0, port) : host;
    }
}
