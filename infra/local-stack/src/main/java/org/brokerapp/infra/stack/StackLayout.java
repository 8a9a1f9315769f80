package org.brokerapp.infra.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.ElasticsearchNode;
import org.brokerapp.infra.servers.KafkaBroker;
import org.brokerapp.regions.Region;
import org.brokerapp.regions.RegionsModel;

/**
 * Which servers the stack runs and where: derived from the regions model and the address plan
 * alone, so a second process (the command line's status, cut and heal) computes the same layout.
 */
public record StackLayout(StackSettings settings, List<CassandraNode> cassandra, List<KafkaBroker> kafka,
                          List<ElasticsearchNode> elasticsearch) {

    public static StackLayout of(StackSettings settings) {
        AddressPlan plan = settings.addresses();
        return of(settings, settings.wanEmulation() ? plan::cassandraWanAddress : plan::cassandraAddress);
    }

    /**
     * The layout of the stack in containers ({@code ContainerStack}): the same addresses on this machine, where the
     * containers' ports are published; the Cassandra nodes gossip on the containers' network, so that is the address
     * other nodes (and other DCs) know each by. No WAN emulation, no metrics.
     */
    public static StackLayout inContainers(StackSettings settings) {
        return of(settings.withWanEmulation(false).withMetrics(false), settings.addresses()::cassandraContainerAddress);
    }

    /** {@code peerAddress}: region and node number (1-based) to the address the other nodes reach a node at. */
    private static StackLayout of(StackSettings settings, BiFunction<Integer, Integer, String> peerAddress) {
        RegionsModel model = settings.regions();
        AddressPlan plan = settings.addresses();
        List<String> seeds = new ArrayList<>();
        for (int r = 1; r <= model.regions().size(); r++) {
            seeds.add(peerAddress.apply(r, 1) + ":" + AddressPlan.STORAGE_PORT);
        }
        List<CassandraNode> cassandra = new ArrayList<>();
        List<KafkaBroker> kafka = new ArrayList<>();
        List<ElasticsearchNode> elasticsearch = new ArrayList<>();
        for (int r = 1; r <= model.regions().size(); r++) {
            Region region = model.regions().get(r - 1);
            Path regionDir = settings.workDir().resolve(region.name());
            for (int n = 1; settings.cassandra() && n <= region.cassandraNodes(); n++) {
                String address = plan.cassandraAddress(r, n);
                cassandra.add(new CassandraNode(region, n, address, peerAddress.apply(r, n),
                        plan.cassandraJmxPort(r, n), seeds, regionDir.resolve("cassandra-" + n), settings.cassandraHeapMb()));
            }
            kafka.add(new KafkaBroker(region, plan.kafkaAddress(r), regionDir.resolve("kafka")));
            elasticsearch.add(new ElasticsearchNode(region, plan.elasticsearchAddress(r), regionDir.resolve("elasticsearch"), settings.elasticsearchHeapMb(),
                    settings.workDir()));
        }
        return new StackLayout(settings, List.copyOf(cassandra), List.copyOf(kafka), List.copyOf(elasticsearch));
    }

    public List<CassandraNode> cassandraIn(String region) {
        return cassandra.stream().filter(n -> n.region().name().equals(region)).toList();
    }

    /**
     * The Cassandra node of a region that a node drill kills or fills: the DC's last one, never a seed
     * (a restarted seed would find no other seed of its DC to gossip with first).
     */
    public CassandraNode drillableCassandraNode(String region) {
        List<CassandraNode> nodes = cassandraIn(region);
        if (nodes.isEmpty()) {
            throw new StackException("the stack has no Cassandra node in " + region);
        }
        CassandraNode last = nodes.get(nodes.size() - 1);
        if (last.isSeed()) {
            throw new StackException("the " + region + " DC has " + nodes.size() + " Cassandra node(s), all seeds: no node to drill without"
                    + " taking the DC down (start the stack with --nodes-per-dc 3)");
        }
        return last;
    }

    public KafkaBroker kafkaIn(String region) {
        settings.regions().region(region);
        return kafka.stream().filter(k -> k.region().name().equals(region)).findFirst().orElseThrow();
    }

    /** The region's Elasticsearch node: part of every layout; it runs when search is on or a test asks for it. */
    public ElasticsearchNode elasticsearchIn(String region) {
        settings.regions().region(region);
        return elasticsearch.stream().filter(e -> e.region().name().equals(region)).findFirst().orElseThrow();
    }

    /**
     * The delay into a region's servers. Toxiproxy delays by destination, so with more than two
     * regions a destination gets the mean of the delays configured towards it.
     */
    public Duration oneWayLatencyInto(String region) {
        RegionsModel model = settings.regions();
        return Duration.ofMillis(Math.round(model.names().stream().filter(other -> !other.equals(region))
                .mapToLong(other -> model.oneWayLatency(other, region).toMillis()).average().orElse(0)));
    }

    /** True when per-destination delays reproduce every configured pair exactly. */
    public boolean latencyIsExact() {
        RegionsModel model = settings.regions();
        return model.names().stream().allMatch(to -> model.names().stream().filter(from -> !from.equals(to))
                .allMatch(from -> model.oneWayLatency(from, to).equals(oneWayLatencyInto(to))));
    }
}
