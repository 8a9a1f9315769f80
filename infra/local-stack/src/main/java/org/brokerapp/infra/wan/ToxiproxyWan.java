package org.brokerapp.infra.wan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.host.StackException;

/**
 * WAN emulation with toxiproxy: one proxy in front of each server that other regions reach,
 * carrying a latency toxic on the bytes flowing into that server. Cassandra opens separate
 * connections for each direction, so a message from region A to region B pays B's proxy once
 * and the answer pays A's proxy once: one round trip costs both one-way delays.
 *
 * <p>Cutting a region disables the proxies in front of its servers. With two regions the other
 * region's proxies go down too, a clean symmetric partition; with more regions the cut region can
 * still send to the others but never hears back, which every request/response exchange (writes,
 * reads, gossip) experiences as a partition.
 */
public final class ToxiproxyWan implements WanEmulator {

    static final String BINARY_ENV = "TOXIPROXY_SERVER";

    private final ToxiproxyClient client;
    private final Optional<ServerProcess> process;
    private final List<String> regions;

    private ToxiproxyWan(ToxiproxyClient client, Optional<ServerProcess> process, List<String> regions) {
        this.client = client;
        this.process = process;
        this.regions = List.copyOf(regions);
    }

    /** The emulator of a stack started by another process (the command line's cut and heal). */
    public static ToxiproxyWan attach(AddressPlan plan, List<String> regions) {
        ToxiproxyClient client = new ToxiproxyClient(plan.wanControlAddress(), plan.wanControlPort());
        if (!client.isUp()) {
            throw new StackException("no WAN emulator answers at " + plan.wanControlAddress() + ":" + plan.wanControlPort()
                    + ": is the stack up, and was it started with WAN emulation?");
        }
        return new ToxiproxyWan(client, Optional.empty(), regions);
    }

    /** Where {@code toxiproxy-server} is installed, if anywhere we look. */
    static Optional<Path> findBinary() {
        // $HOME first, as infra/bin/install-prerequisites installs under it (Java's user.home ignores it)
        String home = System.getenv().getOrDefault("HOME", System.getProperty("user.home"));
        Stream<Path> candidates = Stream.concat(
                Stream.ofNullable(System.getenv(BINARY_ENV)).map(Path::of),
                Stream.concat(
                        Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).filter(s -> !s.isEmpty()).map(d -> Path.of(d, "toxiproxy-server")),
                        Stream.of(Path.of(home, ".local/bin/toxiproxy-server"), Path.of(home, "go/bin/toxiproxy-server"))));
        return candidates.filter(Files::isExecutable).findFirst();
    }

    public static ToxiproxyWan start(Path binary, AddressPlan plan, Path workDir, List<String> regions) {
        ServerProcess process = ServerProcess.start("wan-emulator (toxiproxy)",
                List.of(binary.toString(), "-host", plan.wanControlAddress(), "-port", Integer.toString(plan.wanControlPort())),
                workDir.resolve("wan/console.log"));
        ToxiproxyClient client = new ToxiproxyClient(plan.wanControlAddress(), plan.wanControlPort());
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!client.isUp()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                process.stop(Duration.ofSeconds(2));
                throw new StackException("toxiproxy did not start; see " + process.console());
            }
            ServerProcess.sleep(Duration.ofMillis(100));
        }
        return new ToxiproxyWan(client, Optional.of(process), regions);
    }

    @Override
    public boolean emulating() {
        return true;
    }

    @Override
    public void route(String name, String region, String wanAddress, String target, Duration oneWayLatency) {
        String proxy = region + "." + name;
        client.createProxy(proxy, wanAddress, target);
        client.addLatency(proxy, ToxiproxyClient.Direction.REQUESTS, oneWayLatency);
    }

    @Override
    public void routeRequestResponse(String name, String region, String wanAddress, String target, Duration oneWayLatency, Duration returnLatency) {
        route(name, region, wanAddress, target, oneWayLatency);
        client.addLatency(region + "." + name, ToxiproxyClient.Direction.RESPONSES, returnLatency);
    }

    @Override
    public void slowDown(String region, Duration extra) {
        requireKnown(region);
        for (ToxiproxyClient.Proxy proxy : client.proxies()) {
            if (regionOf(proxy).equals(region)) {
                client.setExtraLatency(proxy.name(), "extra-latency", ToxiproxyClient.Direction.RESPONSES, extra);
            }
        }
    }

    @Override
    public void delayReplicationInto(String region, Duration extra) {
        requireKnown(region);
        for (ToxiproxyClient.Proxy proxy : client.proxies()) {
            if (regionOf(proxy).equals(region) && proxy.name().startsWith(region + "." + CASSANDRA_ROUTE)) {
                client.setExtraLatency(proxy.name(), "replication-lag", ToxiproxyClient.Direction.REQUESTS, extra);
            }
        }
    }

    @Override
    public void cut(String region) {
        requireKnown(region);
        setEnabled(affectedBy(region), false);
    }

    @Override
    public void heal(String region) {
        requireKnown(region);
        setEnabled(affectedBy(region), true);
    }

    @Override
    public Set<String> cutRegions() {
        Set<String> cut = new TreeSet<>();
        for (ToxiproxyClient.Proxy proxy : client.proxies()) {
            if (!proxy.enabled()) {
                cut.add(regionOf(proxy));
            }
        }
        return cut;
    }

    @Override
    public Optional<ServerProcess> process() {
        return process;
    }

    private Set<String> affectedBy(String region) {
        return regions.size() == 2 ? Set.copyOf(regions) : Set.of(region);
    }

    private void setEnabled(Set<String> affectedRegions, boolean enabled) {
        for (ToxiproxyClient.Proxy proxy : client.proxies()) {
            if (affectedRegions.contains(regionOf(proxy))) {
                client.setEnabled(proxy.name(), enabled);
            }
        }
    }

    /** Proxies are named {@code <region>.<server>}; region names hold no dots. */
    private static String regionOf(ToxiproxyClient.Proxy proxy) {
        return proxy.name().substring(0, proxy.name().indexOf('.'));
    }

    private void requireKnown(String region) {
        if (!regions.contains(region)) {
            throw new StackException("unknown region '" + region + "'; known: " + regions);
        }
    }
}
