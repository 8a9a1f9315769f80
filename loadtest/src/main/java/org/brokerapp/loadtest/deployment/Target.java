package org.brokerapp.loadtest.deployment;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;

import org.brokerapp.regions.RegionsModel;

/**
 * The deployment a run loads: per region a broker's base URL, a Kafka for its ticks and,
 * optionally, a CQL endpoint for the floor. {@link #close} stops whatever the target itself started.
 */
public interface Target extends AutoCloseable {

    RegionsModel regions();

    /** Base URL of each region's broker, e.g. {@code http://127.0.1.3:8080}, in region order. */
    Map<String, String> brokerUrls();

    /**
     * Each region's broker instances by their own base URLs, where each one's metrics are read: a region behind one
     * address with several instances behind it lists them all. By default each region's one URL.
     */
    default Map<String, List<String>> brokerInstanceUrls() {
        Map<String, List<String>> instances = new java.util.LinkedHashMap<>();
        brokerUrls().forEach((region, url) -> instances.put(region, List.of(url)));
        return instances;
    }

    /** Where the harness publishes a region's ticks, and its login there (as the feed: only the feed may write ticks). */
    Map<String, Object> tickKafka(String region);

    Optional<CqlEndpoint> cql(String region);

    /**
     * Where the harness may answer a bare TCP echo in a region, and the address that reaches it across the
     * emulated WAN, as other regions reach the region's broker; empty where no WAN is emulated.
     */
    default Optional<WanEcho> wanEcho(String region) {
        return Optional.empty();
    }

    /** An echo's own address ({@code listen}) and the one that reaches it across the WAN ({@code across}). */
    record WanEcho(java.net.InetSocketAddress listen, java.net.InetSocketAddress across) {
    }

    /** What the harness's HTTPS clients trust beyond the JVM's defaults: the local stack's CA when it runs with TLS. */
    default Optional<SSLContext> trust() {
        return Optional.empty();
    }

    /** One line saying what this is, for the report. */
    String describe();

    /** Whether the WAN between regions is emulated at {@link RegionsModel#roundTrip} (false: real, or none). */
    boolean wanEmulated();

    @Override
    void close();
}
