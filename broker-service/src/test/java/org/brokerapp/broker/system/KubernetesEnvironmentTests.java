package org.brokerapp.broker.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.brokerapp.broker.search.SearchProperties;
import org.brokerapp.infra.servers.KafkaAccess;
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

/**
 * One image serves every region: the environment a region's pod gets from its ConfigMap
 * (k8s/base/broker-service/broker.env merged with the region's variables that Terraform's plan writes
 * into the overlay's generated component) binds, over application.yaml and with no region profile, to
 * that region's broker settings. The generated variables and the Secrets' are stood in for by literal
 * values under the names they have there (k8s TerraformAgreementIT checks the generated ones' values).
 */
class KubernetesEnvironmentTests {

    static final Path K8S = Path.of("..", "k8s");

    @ParameterizedTest
    @ValueSource(strings = {"us-east-1", "ap-southeast-2"})
    void theRegionsConfigMapBindsToItsBrokerSettings(String region) throws IOException {
        Map<String, Object> variables = new LinkedHashMap<>();
        variables.putAll(envFile(K8S.resolve("base/broker-service/broker.env")));
        String other = region.equals("us-east-1") ? "ap-southeast-2" : "us-east-1";
        // as terraform/modules/regions-plan writes them (output kubernetes, file broker.env)
        variables.put("BROKER_REGION", region);
        variables.put("BROKER_REGIONS_FILE", "/etc/broker/regions/regions.yaml");
        variables.put("SPRING_CASSANDRA_LOCAL_DATACENTER", region);
        variables.put("SPRING_CASSANDRA_CONTACT_POINTS", "10.64.192.10:9042,10.64.196.10:9042,10.64.200.10:9042");
        variables.put("BROKER_KAFKA_BOOTSTRAP_SERVERS", "10.64.192.20:9092");
        variables.put("BROKER_KAFKA_USERNAME", "broker-" + region);
        variables.put("SPRING_APPLICATION_JSON", "{\"broker\":{\"routing\":{\"peers\":{\"" + other + "\":\"http://broker." + other
                + ".brokerapp.internal:8080\"}},\"search\":{\"elasticsearch\":{\"" + region + "\":\"https://10.64.196.20:9200\"}}}}");
        // from the Secret broker-credentials
        variables.put("SPRING_CASSANDRA_USERNAME", "broker");
        variables.put("BROKER_PEERS_PRIVATE_KEY", "key-from-a-secret");
        variables.put("BROKER_SECURITY_TOKEN_KEY", "token-key-from-a-secret");
        variables.put("BROKER_KAFKA_PASSWORD", "kafka-password-from-terraform");

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
        assertThat(broker.kafka().bootstrapServers()).isEqualTo("10.64.192.20:9092");
        assertThat(broker.regionsFile()).isEqualTo("/etc/broker/regions/regions.yaml");
        // its Kafka login: the principal of the region's brokers, as infra's KafkaAccess names it
        assertThat(broker.kafka().username()).isEqualTo(KafkaAccess.broker(region));
        assertThat(broker.kafka().password()).isEqualTo("kafka-password-from-terraform");
        // over TLS, trusting Terraform's data CA as a PEM file (no store password)
        assertThat(broker.kafka().truststore()).isEqualTo("/etc/broker/tls/data-ca.crt");
        assertThat(broker.kafka().truststorePassword()).isEmpty();
        // (not the connection: it reads the CA file, which exists only in the pod)
        assertThat(binder.bind("broker.peers.private-key", String.class).get()).isEqualTo("key-from-a-secret");
        assertThat(binder.bind("broker.security.token-key", String.class).get()).isEqualTo("token-key-from-a-secret");
        // the regions' public keys and the accounts come as files, one property each (configtree)
        assertThat(binder.bind("spring.config.import", String[].class).get())
                .containsExactly("optional:configtree:/etc/broker/config/peer-public-keys/", "optional:configtree:/etc/broker/config/accounts/");
        assertThat(broker.routing().peers()).containsOnlyKeys(other);
        assertThat(broker.routing().peers().get(other)).isEqualTo("http://broker." + other + ".brokerapp.internal:8080");
        // no demo account outside the local profile
        assertThat(broker.seedAccounts()).isEmpty();

        assertThat(binder.bind("spring.cassandra.local-datacenter", String.class).get()).isEqualTo(region);
        assertThat(binder.bind("spring.cassandra.contact-points", String[].class).get())
                .containsExactly("10.64.192.10:9042", "10.64.196.10:9042", "10.64.200.10:9042");
        assertThat(binder.bind("spring.cassandra.username", String.class).get()).isEqualTo("broker");
        assertThat(binder.bind("spring.cassandra.ssl.bundle", String.class).get()).isEqualTo("data-ca");
        assertThat(binder.bind("spring.ssl.bundle.pem.data-ca.truststore.certificate", String.class).get())
                .isEqualTo("file:/etc/broker/tls/data-ca.crt");
        assertThat(binder.bind("broker.search.elasticsearch", org.springframework.boot.context.properties.bind.Bindable.mapOf(String.class,
                String.class)).get()).containsExactly(Map.entry(region, "https://10.64.196.20:9200"));
        assertThat(binder.bind("broker.search", SearchProperties.class).get().sslBundle()).isEqualTo("data-ca");
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
