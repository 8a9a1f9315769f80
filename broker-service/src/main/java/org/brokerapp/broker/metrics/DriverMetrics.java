package org.brokerapp.broker.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.cassandra.autoconfigure.CqlSessionBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Cassandra driver's own metrics (requests, timeouts, connections, in-flight requests per node)
 * in the broker's Micrometer registry, beside the broker's meters: the driver's Micrometer factory
 * is chosen in cassandra-driver.conf, and this hands it the registry the session is built with.
 */
@Configuration(proxyBeanMethods = false)
class DriverMetrics {

    @Bean
    CqlSessionBuilderCustomizer driverMetricsToMicrometer(MeterRegistry registry) {
        return builder -> builder.withMetricRegistry(registry);
    }
}
