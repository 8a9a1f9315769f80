package org.brokerapp.infra.wan;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.host.StackException;

/** Regions talk directly, with loopback latency; cut and heal are refused with the reason. */
public record NoWanEmulation(String reason) implements WanEmulator {

    @Override
    public boolean emulating() {
        return false;
    }

    @Override
    public void route(String name, String region, String wanAddress, String target, Duration oneWayLatency) {
        if (!wanAddress.equals(target)) {
            throw new IllegalStateException("without WAN emulation a server is reached at its own address");
        }
    }

    @Override
    public void routeRequestResponse(String name, String region, String wanAddress, String target, Duration oneWayLatency, Duration returnLatency) {
        route(name, region, wanAddress, target, oneWayLatency);
    }

    @Override
    public void slowDown(String region, Duration extra) {
        throw new StackException("cannot slow down " + region + ": " + reason);
    }

    @Override
    public void delayReplicationInto(String region, Duration extra) {
        throw new StackException("cannot delay replication into " + region + ": " + reason);
    }

    @Override
    public void cut(String region) {
        throw new StackException("cannot cut " + region + ": " + reason);
    }

    @Override
    public void heal(String region) {
        throw new StackException("cannot heal " + region + ": " + reason);
    }

    @Override
    public Set<String> cutRegions() {
        return Set.of();
    }

    @Override
    public Optional<ServerProcess> process() {
        return Optional.empty();
    }
}
