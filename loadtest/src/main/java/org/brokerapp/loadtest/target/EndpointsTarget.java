package org.brokerapp.loadtest.target;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.brokerapp.regions.KafkaCredential;
import org.brokerapp.regions.RegionsModel;

/**
 * An existing deployment given by its endpoints: the harness starts and stops nothing. {@code tickLogin}
 * is the feed's Kafka login when the deployment's Kafka takes only clients that log in.
 */
public record EndpointsTarget(RegionsModel regions, Map<String, String> brokerUrls, Map<String, String> kafka,
                              Map<String, CqlEndpoint> cqlEndpoints, Optional<KafkaCredential> tickLogin) implements Target {

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
    public Map<String, Object> tickKafka(String region) {
        Map<String, Object> config = new java.util.HashMap<>(Map.of("bootstrap.servers", kafka.get(region)));
        tickLogin.ifPresent(login -> config.putAll(login.clientProperties()));
        return config;
    }

    @Override
    public Optional<CqlEndpoint> cql(String region) {
        return Optional.ofNullable(cqlEndpoints.get(region));
    }

    @Override
    public String describe() {
        return "existing deployment: brokers " + brokerUrls + ", Kafka " + kafka + tickLogin.map(l -> " (ticks as " + l.username() + ")").orElse("")
                + ", CQL " + cqlEndpoints;
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
