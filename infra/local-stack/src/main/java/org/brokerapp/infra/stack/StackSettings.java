package org.brokerapp.infra.stack;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.CassandraDisk;
import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;

/**
 * How to run the local stack.
 *
 * @param regions       the deployment to emulate (nodes per DC already applied)
 * @param workDir       every node's data, logs and configuration live below it
 * @param instance      which {@link AddressPlan} slice of loopback to use
 * @param wanEmulation  route cross-region traffic through the latency injector
 * @param cassandraHeapMb heap of each Cassandra node
 * @param cassandra     run the Cassandra DCs; without them the stack is a Kafka per region only
 * @param search        run an Elasticsearch node per region ({@code --no-search} leaves them out)
 * @param elasticsearchHeapMb heap of each Elasticsearch node
 * @param metrics       run Prometheus over every server (JMX exporter agents on Cassandra and Kafka, the brokers'
 *                      addresses, the WAN emulator), with the rules of {@code infra/monitoring/rules}
 *                      ({@code --no-metrics} leaves it out)
 * @param tls           TLS on CQL (client-to-node and internode) with certificates from a CA of the stack's own
 *                      ({@code LocalCertificates}); the brokers a test or the load harness starts serve HTTPS with them
 *                      ({@code --tls}; off by default)
 * @param fillableDisks regions whose drilled Cassandra node ({@link StackLayout#drillableCassandraNode}) keeps one of its
 *                      directories (its data or its commit log) on a small filesystem of its own that a disk drill fills
 *                      ({@code FillableDisk}; root only)
 */
public record StackSettings(RegionsModel regions, Path workDir, int instance, boolean wanEmulation, int cassandraHeapMb, boolean cassandra,
                            boolean search, int elasticsearchHeapMb, boolean metrics, boolean tls,
                            Map<String, CassandraDisk> fillableDisks) {

    public static final int DEFAULT_CASSANDRA_HEAP_MB = 512;
    /** Measured: 256 MB indexes the demo's events but a bulk of aggregations then spends its time in GC; 384 MB is the knee. */
    public static final int DEFAULT_ELASTICSEARCH_HEAP_MB = 384;

    public StackSettings {
        workDir = workDir.toAbsolutePath().normalize();
        fillableDisks = Map.copyOf(fillableDisks);
        new AddressPlan(instance);
        if (cassandraHeapMb < 256) {
            throw new StackException("cassandra heap must be at least 256 MB, was " + cassandraHeapMb);
        }
        if (elasticsearchHeapMb < 256) {
            throw new StackException("elasticsearch heap must be at least 256 MB, was " + elasticsearchHeapMb);
        }
    }

    public static StackSettings defaults(Path workDir, int instance) {
        return new StackSettings(RegionsFile.load(), workDir, instance, true, DEFAULT_CASSANDRA_HEAP_MB, true, true, DEFAULT_ELASTICSEARCH_HEAP_MB, true, false, Map.of());
    }

    public StackSettings withNodesPerDc(OptionalInt nodes) {
        return nodes.isPresent()
                ? new StackSettings(regions.withCassandraNodesPerRegion(nodes.getAsInt()), workDir, instance, wanEmulation, cassandraHeapMb, cassandra,
                        search, elasticsearchHeapMb, metrics, tls, fillableDisks)
                : this;
    }

    public StackSettings withWanEmulation(boolean on) {
        return new StackSettings(regions, workDir, instance, on, cassandraHeapMb, cassandra, search, elasticsearchHeapMb, metrics, tls, fillableDisks);
    }

    public StackSettings withRegions(Optional<Path> regionsFile) {
        return regionsFile.map(f -> new StackSettings(RegionsFile.load(f), workDir, instance, wanEmulation, cassandraHeapMb, cassandra,
                search, elasticsearchHeapMb, metrics, tls, fillableDisks)).orElse(this);
    }

    /** A Kafka per region and nothing else: no Cassandra or search, hence nothing to put behind a WAN (Prometheus stays as set). */
    public StackSettings kafkaOnly() {
        return new StackSettings(regions, workDir, instance, false, cassandraHeapMb, false, false, elasticsearchHeapMb, metrics, tls, fillableDisks);
    }

    public StackSettings withSearch(boolean on) {
        return new StackSettings(regions, workDir, instance, wanEmulation, cassandraHeapMb, cassandra, on, elasticsearchHeapMb, metrics, tls, fillableDisks);
    }

    public StackSettings withMetrics(boolean on) {
        return new StackSettings(regions, workDir, instance, wanEmulation, cassandraHeapMb, cassandra, search, elasticsearchHeapMb, on, tls, fillableDisks);
    }

    public StackSettings withTls(boolean on) {
        return new StackSettings(regions, workDir, instance, wanEmulation, cassandraHeapMb, cassandra, search, elasticsearchHeapMb, metrics, on, fillableDisks);
    }

    /** With the drilled node of each region named here keeping the directory named beside it on a disk a drill can fill. */
    public StackSettings withFillableDisks(Map<String, CassandraDisk> disks) {
        return new StackSettings(regions, workDir, instance, wanEmulation, cassandraHeapMb, cassandra, search, elasticsearchHeapMb, metrics, tls, disks);
    }

    public AddressPlan addresses() {
        return new AddressPlan(instance);
    }
}
