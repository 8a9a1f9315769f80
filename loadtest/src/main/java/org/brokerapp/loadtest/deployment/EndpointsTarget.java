package org.brokerapp.loadtest.deployment;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.brokerapp.regions.KafkaCredential;
import org.brokerapp.regions.KafkaTrust;
import org.brokerapp.regions.RegionsModel;

/**
 * An existing deployment given by its endpoints: the harness starts and stops nothing. {@code tickLogin}
 * is the feed's Kafka login when the deployment's Kafka takes only clients that log in; {@code kafkaTrust},
 * per region whose Kafka listens with TLS, what the login over TLS trusts.
 */
public record EndpointsTarget(RegionsModel regions, Map<String, String> brokerUrls, Map<String, String> kafka,
                              Map<String, CqlEndpoint> cqlEndpoints, Optional<KafkaCredential> tickLogin,
                              Map<String, KafkaTrust> kafkaTrust) implements Target {

    public EndpointsTarget {
        brokerUrls = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(brokerUrls));
        kafka = Map.copyOf(kafka);
        kafkaTrust = Map.copyOf(kafkaTrust);
        cqlEndpoints = Map.copyOf(cqlEndpoints);
        for (String region : regions.names()) {
            if (!brokerUrls.containsKey(region)) {
                throw new IllegalArgumentException("no broker URL for region " + region + " (--broker " + region + "=http://host:port)");
            }
            if (!kafka.containsKey(region)) {
                throw new IllegalArgumentException("no Kafka bootstrap for region " + region + " (--kafka " + region + "=host:port)");
            }
            if (kafkaTrust.containsKey(region) && tickLogin.isEmpty()) {
                throw new IllegalArgumentException("region " + region + "'s Kafka listens with TLS, which goes with a login: name the "
                        + "directory of its password files (kafka_credentials)");
            }
        }
    }

    @Override
    public Map<String, Object> tickKafka(String region) {
        Map<String, Object> config = new java.util.HashMap<>(Map.of("bootstrap.servers", kafka.get(region)));
        tickLogin.ifPresent(login -> config.putAll(login.clientProperties(Optional.ofNullable(kafkaTrust.get(region)))));
        return config;
    }

    @Override
    public Optional<CqlEndpoint> cql(String region) {
        return Optional.ofNullable(cqlEndpoints.get(region));
    }

    @Override
    public String describe() {
        return "existing deployment: brokers " + brokerUrls + ", Kafka " + kafka + tickLogin.map(l -> " (ticks as " + l.username() + ")").orElse("")
                + (kafkaTrust.isEmpty() ? "" : " over TLS in " + new java.util.TreeSet<>(kafkaTrust.keySet()))
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
