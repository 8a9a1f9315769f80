package org.brokerapp.loadtest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.brokerapp.loadtest.target.EndpointsTarget;
import org.brokerapp.regions.KafkaCredential;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --target-terraform FILE}: a terraform output file mapped onto --broker, --kafka and --cql. */
class TerraformTargetTests {

    @TempDir
    Path dir;

    static final String OUTPUT = """
            {"regions": {"sensitive": false, "type": ["map", ["object", {}]], "value": {
              "ap-southeast-2": {"broker_url": "https://ap-southeast-2.api.example.com", "cql_contact_points": ["10.65.192.10:9042", "10.65.196.10:9042"],
                                 "datacenter": "ap-southeast-2", "kafka_bootstrap": "10.65.192.20:9092",
                                 "kafka_ca_cert_pem": "-----BEGIN CERTIFICATE-----\\nMIIBca\\n-----END CERTIFICATE-----\\n"},
              "us-east-1": {"broker_url": "https://us-east-1.api.example.com", "cql_contact_points": ["10.64.192.10:9042"],
                            "datacenter": "us-east-1", "kafka_bootstrap": "10.64.192.20:9092"}}}}
            """;

    @Test
    void everyRegionOfTheFileBecomesItsBrokerKafkaAndCqlEndpoint() throws Exception {
        Path file = Files.writeString(dir.resolve("outputs.json"), OUTPUT);

        RunPlan plan = CliOptions.parse(new String[] {"--preset", "smoke", "--target-terraform", file.toString()});

        assertThat(plan.target()).isInstanceOfSatisfying(TargetPlan.Endpoints.class, e -> {
            assertThat(e.brokers()).containsEntry("us-east-1", "https://us-east-1.api.example.com")
                    .containsEntry("ap-southeast-2", "https://ap-southeast-2.api.example.com");
            assertThat(e.kafka()).containsEntry("us-east-1", "10.64.192.20:9092").containsEntry("ap-southeast-2", "10.65.192.20:9092");
            assertThat(e.cql().get("ap-southeast-2").contactPoints()).containsExactly(
                    new InetSocketAddress("10.65.192.10", 9042), new InetSocketAddress("10.65.196.10", 9042));
            assertThat(e.cql().get("ap-southeast-2").localDatacenter()).isEqualTo("ap-southeast-2");
            // a region whose Kafka listens with TLS (Terraform's) is reached over TLS trusting the CA the file names
            assertThat(e.kafkaTrust()).containsOnlyKeys("ap-southeast-2");
            assertThat(e.kafkaTrust().get("ap-southeast-2").clientProperties()).containsEntry("ssl.truststore.type", "PEM")
                    .containsEntry("ssl.truststore.certificates", "-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----");
        });
    }

    @Test
    void theTickProducerLogsInOverTlsWhereTheFileNamesAKafkaCa() throws Exception {
        Path file = Files.writeString(dir.resolve("outputs.json"), OUTPUT);
        RunPlan plan = CliOptions.parse(new String[] {"--preset", "smoke", "--target-terraform", file.toString()});
        TargetPlan.Endpoints e = (TargetPlan.Endpoints) plan.target();

        EndpointsTarget target = new EndpointsTarget(plan.regions(), e.brokers(), e.kafka(), e.cql(), Optional.of(new KafkaCredential("feed", "s3cret")),
                e.kafkaTrust());

        assertThat(target.tickKafka("ap-southeast-2")).containsEntry("security.protocol", "SASL_SSL").containsEntry("ssl.truststore.type", "PEM");
        assertThat(target.tickKafka("us-east-1")).containsEntry("security.protocol", "SASL_PLAINTEXT");
        assertThatThrownBy(() -> new EndpointsTarget(plan.regions(), e.brokers(), e.kafka(), e.cql(), Optional.empty(), e.kafkaTrust()))
                .hasMessageContaining("ap-southeast-2's Kafka listens with TLS");
    }

    @Test
    void aFileForOtherRegionsIsRefusedNamingBoth() throws Exception {
        Path file = Files.writeString(dir.resolve("outputs.json"), OUTPUT.replace("ap-southeast-2", "eu-west-2"));

        assertThatThrownBy(() -> CliOptions.parse(new String[] {"--target-terraform", file.toString()}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("names regions [eu-west-2, us-east-1]").hasMessageContaining("[us-east-1, ap-southeast-2]");
    }

    @Test
    void itNamesTheWholeDeploymentSoOtherTargetOptionsAreRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("outputs.json"), OUTPUT);

        assertThatThrownBy(() -> CliOptions.parse(new String[] {"--target-terraform", file.toString(), "--kafka", "us-east-1=h:1"}))
                .isInstanceOf(UsageException.class).hasMessage("--target-terraform names the whole deployment; drop --kafka");
        assertThatThrownBy(() -> CliOptions.parse(new String[] {"--target-terraform", file.toString(), "--instance", "3"}))
                .isInstanceOf(UsageException.class).hasMessage("--target-terraform names the whole deployment; drop --instance");
    }

    @Test
    void aMissingOrWrongFileIsAOneLineUsageError() throws Exception {
        assertThatThrownBy(() -> CliOptions.parse(new String[] {"--target-terraform", dir.resolve("absent.json").toString()}))
                .isInstanceOf(UsageException.class).hasMessageContaining("--target-terraform: ").hasMessageContaining("does not exist");
        Path state = Files.writeString(dir.resolve("terraform.tfstate"), "{\"version\": 4, \"outputs\": {}}");
        assertThatThrownBy(() -> CliOptions.parse(new String[] {"--target-terraform", state.toString()}))
                .isInstanceOf(UsageException.class).hasMessageContaining("has no output 'regions'");
    }
}
