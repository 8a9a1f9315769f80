package org.brokerapp.loadtest.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.brokerapp.loadtest.deployment.CqlEndpoint;
import org.brokerapp.regions.KafkaTrust;

/** Which deployment to load, as the command line said. */
public sealed interface TargetPlan {

    /**
     * The local stack, started by the harness: instance, work directory, the broker jar, extra broker arguments, TLS or not,
     * and how many broker instances each region runs.
     */
    record Local(int instance, Path workDir, java.util.Optional<Path> regionsFile, java.util.OptionalInt nodesPerDc, Path brokerJar,
                 List<String> brokerArgs, boolean tls, int brokersPerRegion) implements TargetPlan {
    }

    /**
     * An existing deployment: per region a broker URL, a Kafka bootstrap and optionally a CQL endpoint;
     * the directory of Kafka password files when its Kafka takes only clients that log in (the local stack's);
     * per region whose Kafka listens with TLS, what to trust.
     */
    record Endpoints(Map<String, String> brokers, Map<String, String> kafka, Map<String, CqlEndpoint> cql,
                     java.util.Optional<Path> kafkaCredentials, Map<String, KafkaTrust> kafkaTrust) implements TargetPlan {

        public Endpoints {
            kafkaTrust = Map.copyOf(kafkaTrust);
        }
    }
}
