package org.brokerapp.infra.wan;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

import org.brokerapp.infra.host.ServerProcess;

/**
 * The wide-area network between the regions of the local stack: every byte that crosses from one
 * region to another pays the configured one-way latency, and a region can be cut off and healed.
 */
public sealed interface WanEmulator permits ToxiproxyWan, NoWanEmulation {

    /** The route name of a Cassandra node's storage port, before its node number. */
    String CASSANDRA_ROUTE = "cassandra-";

    boolean emulating();

    /** Puts {@code target} behind the WAN: traffic sent to {@code wanAddress} reaches it after {@code oneWayLatency}. */
    void route(String name, String region, String wanAddress, String target, Duration oneWayLatency);

    /**
     * As {@link #route}, for a request/response protocol on one connection (HTTP between brokers):
     * the answer pays {@code returnLatency} on its way back, so a call costs one full round trip.
     */
    void routeRequestResponse(String name, String region, String wanAddress, String target, Duration oneWayLatency, Duration returnLatency);

    /**
     * Delays the answers a region's servers send back across the WAN by {@code extra} on top of the
     * WAN's latency (zero removes it): requests still arrive and execute, their answers come late.
     */
    void slowDown(String region, Duration extra);

    /**
     * Delays what other DCs' Cassandra nodes send to {@code region}'s nodes by {@code extra} on top
     * of the WAN's latency (zero removes it): that region's replicas lag, every other path is as fast.
     */
    void delayReplicationInto(String region, Duration extra);

    /** Isolates a region from all others (see the architecture doc for what "all" means beyond two regions). */
    void cut(String region);

    void heal(String region);

    Set<String> cutRegions();

    Optional<ServerProcess> process();
}
