package org.brokerapp.regions;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The whole deployment: its regions and the WAN between them. Read from {@code infra/regions.yaml}
 * by {@link RegionsFile}; every module (local stack, brokers, feeds, load test) uses this one model.
 */
public record RegionsModel(List<Region> regions, Wan wan) {

    public RegionsModel {
        regions = regions == null ? List.of() : List.copyOf(regions);
        wan = wan == null ? new Wan(0, List.of()) : wan;
        if (regions.isEmpty()) {
            throw new InvalidRegionsException("no regions are defined");
        }
        requireUnique(regions.stream().map(Region::name).toList(), "region name");
        requireUnique(regions.stream().map(Region::datacenter).toList(), "datacenter");
        requireUnique(regions.stream().flatMap(r -> r.exchanges().stream()).toList(), "exchange (an exchange has one home region)");
        Set<String> names = Set.copyOf(regions.stream().map(Region::name).toList());
        for (WanLink link : wan.links()) {
            for (String end : link.between()) {
                if (!names.contains(end)) {
                    throw new InvalidRegionsException("wan.links names unknown region " + end + "; known: " + names);
                }
            }
        }
    }

    public Region region(String name) {
        return regions.stream()
                .filter(r -> r.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new InvalidRegionsException("unknown region '" + name + "'; known: " + names()));
    }

    public List<String> names() {
        return regions.stream().map(Region::name).toList();
    }

    /** The region whose broker matches the symbols of this exchange, if any region lists it. */
    public Optional<Region> homeOf(String exchange) {
        return regions.stream().filter(r -> r.isHomeOf(exchange)).findFirst();
    }

    public Duration oneWayLatency(String from, String to) {
        region(from);
        region(to);
        return from.equals(to) ? Duration.ZERO : Duration.ofMillis(wan.oneWayLatencyMs(from, to));
    }

    public Duration roundTrip(String a, String b) {
        return oneWayLatency(a, b).plus(oneWayLatency(b, a));
    }

    /** Replicas per data center, in region order: the NetworkTopologyStrategy options of the keyspace. */
    public Map<String, Integer> replicationFactors() {
        Map<String, Integer> factors = new LinkedHashMap<>();
        regions.forEach(r -> factors.put(r.datacenter(), r.replicationFactor()));
        return factors;
    }

    /** The replication clause of a CQL keyspace spanning every region: {@code {'class': 'NetworkTopologyStrategy', 'dc': rf, ...}}. */
    public String networkTopologyReplication() {
        StringBuilder cql = new StringBuilder("{'class': 'NetworkTopologyStrategy'");
        replicationFactors().forEach((dc, rf) -> cql.append(", '").append(dc).append("': ").append(rf));
        return cql.append('}').toString();
    }

    /** The same deployment with every DC resized, e.g. for a smaller laptop stack. */
    public RegionsModel withCassandraNodesPerRegion(int nodes) {
        return new RegionsModel(regions.stream().map(r -> r.withCassandraNodes(nodes)).toList(), wan);
    }

    /**
     * The same deployment with an exchange homed in {@code region} instead of where it is now: what
     * the ticker-feed publishes after a regional failover, when {@code region} has adopted the
     * exchange (see broker-service {@code /admin/exchanges}). Moving an exchange to the region that
     * already lists it returns an equal model.
     *
     * @throws InvalidRegionsException for an exchange no region lists, an unknown region, or a move
     *                                 that would leave the exchange's region with no exchange (a
     *                                 region lists at least one)
     */
    public RegionsModel withExchangeMovedTo(String exchange, String region) {
        Region from = homeOf(exchange).orElseThrow(() -> new InvalidRegionsException("unknown exchange '" + exchange
                + "'; known: " + regions.stream().flatMap(r -> r.exchanges().stream()).toList()));
        Region to = region(region);
        if (from.equals(to)) {
            return this;
        }
        List<Region> moved = regions.stream().map(r -> {
            if (r.equals(from)) {
                return withExchanges(r, r.exchanges().stream().filter(e -> !e.equals(exchange)).toList());
            }
            if (r.equals(to)) {
                return withExchanges(r, Stream.concat(r.exchanges().stream(), Stream.of(exchange)).toList());
            }
            return r;
        }).toList();
        return new RegionsModel(moved, wan);
    }

    private static Region withExchanges(Region region, List<String> exchanges) {
        return new Region(region.name(), region.georegion(), region.datacenter(), exchanges, region.cassandraNodes(), region.cassandraInstanceType(),
                region.vpcCidr());
    }

    private static void requireUnique(List<String> values, String what) {
        Set<String> seen = new HashSet<>();
        for (String value : values) {
            if (!seen.add(value)) {
                throw new InvalidRegionsException("duplicate " + what + ": " + value);
            }
        }
    }
}
