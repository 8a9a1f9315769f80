package org.brokerapp.loadtest.target;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.brokerapp.regions.RegionsModel;

/** An existing deployment given by its endpoints: the harness starts and stops nothing. */
public record EndpointsTarget(RegionsModel regions, Map<String, String> brokerUrls, Map<String, String> kafka,
                              Map<String, CqlEndpoint> cqlEndpoints) implements Target {

    public EndpointsTarget {
        brokerUrls = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(brokerUrls));
        kafka = Map.copyOf(kafka);
        cqlEndpoints = Map.copyOf(cqlEndpoints);
        for (String region : regions.names()) {
            if (!brokerUrls.containsKey(region)) {
                throw new IllegalArgumentException("no broker URL for region " + region + " (--broker " + region + "=http://host:port)");
            }
            if (!kafka.containsKey(region)) {
                throw new IllegalArgumentException("no Kafka bootstrap for region " + region + " (--kafka " + region + "=host:port)");
            }
        }
    }

    @Override
    public String kafkaBootstrap(String region) {
        return kafka.get(region);
    }

    @Override
    public Optional<CqlEndpoint> cql(String region) {
        return Optional.ofNullable(cqlEndpoints.get(region));
    }

    @Override
    public String describe() {
        return "existing deployment: brokers " + brokerUrls + ", Kafka " + kafka + ", CQL " + cqlEndpoints;
    }

    @Override
    public boolean wanEmulated() {
        return false;
    }

    @Override
    public void close() {
        // nothing of ours runs there
    }
}
