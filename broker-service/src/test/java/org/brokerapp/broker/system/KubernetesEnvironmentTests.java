package org.brokerapp.broker.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.brokerapp.infra.KafkaAccess;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.support.SpringApplicationJsonEnvironmentPostProcessor;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One image serves every region: the environment a region's pod gets from its ConfigMap
 * (k8s/base/broker-service/broker.env merged with k8s/overlays/REGION/broker.env, as kustomize merges
 * them) binds, over application.yaml and with no region profile, to that region's broker settings.
 * The Secrets' variables are stood in for by literal values.
 */
class KubernetesEnvironmentTests {

    static final Path K8S = Path.of("..", "k8s");

    @ParameterizedTest
    @ValueSource(strings = {"us-east-1", "ap-southeast-2"})
    void theRegionsConfigMapBindsToItsBrokerSettings(String region) throws IOException {
        Map<String, Object> variables = new LinkedHashMap<>();
        variables.putAll(envFile(K8S.resolve("base/broker-service/broker.env")));
        variables.putAll(envFile(K8S.resolve("overlays").resolve(region).resolve("broker.env")));
        variables.put("SPRING_CASSANDRA_USERNAME", "broker-superuser");
        variables.put("BROKER_PEERS_PRIVATE_KEY", "key-from-a-secret");
        variables.put("BROKER_SECURITY_TOKEN_KEY", "token-key-from-a-secret");
        variables.put("BROKER_KAFKA_PASSWORD", "kafka-password-from-the-user-operator");
        variables.put("BROKER_KAFKA_TRUSTSTOREPASSWORD", "store-password-from-strimzis-cluster-ca-secret");

        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().addFirst(
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        new YamlPropertySourceLoader().load("application.yaml", new ClassPathResource("application.yaml"))
                .forEach(environment.getPropertySources()::addLast);
        new SpringApplicationJsonEnvironmentPostProcessor().postProcessEnvironment(environment, new SpringApplication());
        ConfigurationPropertySources.attach(environment);
        Binder binder = Binder.get(environment);

        BrokerProperties broker = binder.bind("broker", BrokerProperties.class).get();
        assertThat(broker.region()).isEqualTo(region);
        assertThat(broker.kafka().bootstrapServers()).isEqualTo("kafka-kafka-bootstrap:9092");
        // its Kafka login: the principal of the region's brokers, as infra's KafkaAccess names it
        assertThat(broker.kafka().username()).isEqualTo(KafkaAccess.broker(region));
        assertThat(broker.kafka().password()).isEqualTo("kafka-password-from-the-user-operator");
        // over TLS, trusting the Kafka's cluster CA (Strimzi's Secret kafka-cluster-ca-cert, mounted and referenced)
        assertThat(broker.kafka().truststore()).isEqualTo("/etc/broker/kafka-tls/ca.p12");
        assertThat(broker.kafka().truststorePassword()).isEqualTo("store-password-from-strimzis-cluster-ca-secret");
        assertThat(broker.kafka().connection()).containsEntry("security.protocol", "SASL_SSL");
        assertThat(binder.bind("broker.peers.private-key", String.class).get()).isEqualTo("key-from-a-secret");
        assertThat(binder.bind("broker.security.token-key", String.class).get()).isEqualTo("token-key-from-a-secret");
        // the regions' public keys and the accounts come as files, one property each (configtree)
        assertThat(binder.bind("spring.config.import", String[].class).get())
                .containsExactly("optional:configtree:/etc/broker/config/peer-public-keys/", "optional:configtree:/etc/broker/config/accounts/");
        String other = region.equals("us-east-1") ? "ap-southeast-2" : "us-east-1";
        assertThat(broker.routing().peers()).containsOnlyKeys(other);
        assertThat(broker.routing().peers().get(other)).isEqualTo("http://broker." + other + ".brokerapp.internal:8080");
        // no demo account outside the local profile
        assertThat(broker.seedAccounts()).isEmpty();

        assertThat(binder.bind("spring.cassandra.local-datacenter", String.class).get()).isEqualTo(region);
        assertThat(binder.bind("spring.cassandra.contact-points", String[].class).get())
                .containsExactly("broker-" + region + "-service:9042");
        assertThat(binder.bind("spring.cassandra.username", String.class).get()).isEqualTo("broker-superuser");
        assertThat(binder.bind("spring.cassandra.ssl.bundle", String.class).get()).isEqualTo("cassandra");
        assertThat(binder.bind("spring.ssl.bundle.pem.cassandra.truststore.certificate", String.class).get())
                .isEqualTo("file:/etc/broker/cassandra-tls/ca.crt");
        assertThat(binder.bind("server.port", Integer.class).get()).isEqualTo(8080);
        // still set by application.yaml: the environment adds, it does not replace
        assertThat(binder.bind("spring.cassandra.request.consistency", String.class).get()).isEqualTo("local-quorum");
    }

    /** NAME=value lines, as kustomize's configMapGenerator reads an env file (# comments, blank lines). */
    static Map<String, String> envFile(Path file) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            values.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return values;
    }
}
