package org.brokerapp.infra.host;

/**
 * Where each server of the local stack listens. Every region gets its own slice of the loopback
 * range, so a stack looks like a small network: region {@code r} (1-based, in the order of the
 * regions file) lives in {@code 127.A.r.0/24} and shows itself to other regions (through the WAN
 * emulator) in {@code 127.B.r.0/24}.
 *
 * <p>{@code instance} separates stacks on one machine: instance 0 (A=0, B=1) is the one people
 * start with {@code infra/bin/stack up}; tests use instance 1 (A=2, B=3), so a test run never
 * collides with a stack left running for a demo.
 */
public record AddressPlan(int instance) {

    public static final int CQL_PORT = 9042;
    public static final int STORAGE_PORT = 7000;
    public static final int KAFKA_PORT = 9092;
    public static final int KAFKA_CONTROLLER_PORT = 9093;
    public static final int BROKER_PORT = 8080;
    /**
     * Where the load harness answers a bare TCP echo on each region's broker address, routed across
     * the emulated WAN as the brokers are: the round trip a cross-region call pays before any server's work.
     */
    public static final int WAN_ECHO_PORT = 7007;
    public static final int ELASTICSEARCH_HTTP_PORT = 9200;
    public static final int ELASTICSEARCH_TRANSPORT_PORT = 9300;
    public static final int MAX_INSTANCE = 60;
    /** Where each Cassandra node and Kafka broker serves its metrics (JMX exporter agent), on its own address. */
    public static final int JMX_EXPORTER_PORT = 9404;

    public AddressPlan {
        if (instance < 0 || instance > MAX_INSTANCE) {
            throw new StackException("stack instance must be 0 to " + MAX_INSTANCE + ", was " + instance);
        }
    }

    /** The address a Cassandra node binds (CQL, and storage for peers of its own DC). */
    public String cassandraAddress(int region, int node) {
        return local(region, 10 + node);
    }

    /** The address other DCs reach a Cassandra node at: its WAN face, a proxy when emulation is on. */
    public String cassandraWanAddress(int region, int node) {
        return "127." + (2 * instance + 1) + "." + region + "." + (10 + node);
    }

    /** The network the containers of a stack share when it runs in containers (the docker profile): a /24 per instance. */
    public String containerSubnet() {
        return containerPrefix() + "0/24";
    }

    /** A Cassandra node's fixed address on the containers' network: where its peers gossip with it. */
    public String cassandraContainerAddress(int region, int node) {
        return containerPrefix() + (10 * region + node);
    }

    /**
     * A region's Kafka on the containers' network. Every container gets a fixed address: one left to the network's
     * allocator can take a Cassandra node's fixed address first (podman hands out addresses after the last it gave,
     * across networks of the same name: seen here as "requested ip address ... is already allocated").
     */
    public String kafkaContainerAddress(int region) {
        return containerPrefix() + (200 + region);
    }

    /** A region's Elasticsearch node on the containers' network (fixed, as {@link #kafkaContainerAddress}). */
    public String elasticsearchContainerAddress(int region) {
        return containerPrefix() + (220 + region);
    }

    private String containerPrefix() {
        return "10.89." + (100 + instance) + ".";
    }

    /** Cassandra binds its JMX to 127.0.0.1 only, so each node needs its own port. */
    public int cassandraJmxPort(int region, int node) {
        return 7100 + 100 * instance + 10 * region + node;
    }

    public String kafkaAddress(int region) {
        return local(region, 2);
    }

    /** A region's Elasticsearch node (HTTP 9200, transport 9300): a cluster of its own, as each region indexes what its broker decided. */
    public String elasticsearchAddress(int region) {
        return local(region, 4);
    }

    /** Where a region's broker-service listens; the stack reserves the address, the broker binds it. */
    public String brokerAddress(int region) {
        return local(region, 3);
    }

    /** Where other regions' brokers reach this region's broker: through the WAN emulator when it runs. */
    public String brokerWanAddress(int region) {
        return "127." + (2 * instance + 1) + "." + region + ".3";
    }

    public String wanControlAddress() {
        return "127." + (2 * instance) + ".0.1";
    }

    public int wanControlPort() {
        return 8474;
    }

    /** Prometheus and the WAN state exporter listen on the stack's control address, beside the WAN emulator. */
    public int prometheusPort() {
        return 9090;
    }

    public int wanExporterPort() {
        return 8475;
    }

    private String local(int region, int host) {
        return "127." + (2 * instance) + "." + region + "." + host;
    }
}
