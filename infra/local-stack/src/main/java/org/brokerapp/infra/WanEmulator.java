package org.brokerapp.infra;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * The wide-area network between the regions of the local stack: every byte that crosses from one
 * region to another pays the configured one-way latency, and a region can be cut off and healed.
 */
public sealed interface WanEmulator permits ToxiproxyWan, NoWanEmulation {

    boolean emulating();

    /** Puts {@code target} behind the WAN: traffic sent to {@code wanAddress} reaches it after {@code oneWayLatency}. */
    void route(String name, String region, String wanAddress, String target, Duration oneWayLatency);

    /** Isolates a region from all others (see the architecture doc for what "all" means beyond two regions). */
    void cut(String region);

    void heal(String region);

    Set<String> cutRegions();

    Optional<ServerProcess> process();
}
