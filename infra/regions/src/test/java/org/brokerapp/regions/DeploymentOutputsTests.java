package org.brokerapp.regions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeploymentOutputsTests {

    @TempDir
    Path dir;

    /** Verbatim shape of `terraform output -json` (terraform 1.8): other outputs beside `regions` are ignored. */
    static final String TERRAFORM_OUTPUT = """
            {
              "keyspace_replication": {"sensitive": false, "type": "string", "value": "{'class': 'NetworkTopologyStrategy', 'us-east-1': 2}"},
              "regions": {
                "sensitive": false,
                "type": ["object", {"us-east-1": ["object", {"broker_url": "string", "cql_contact_points": ["tuple", ["string", "string"]],
                         "cql_ca_cert_pem": "string", "datacenter": "string", "kafka_bootstrap": "string", "kafka_ca_cert_pem": "string"}]}],
                "value": {
                  "us-east-1": {"broker_url": "https://us-east-1.api.example.com", "cql_contact_points": ["10.64.192.10:9042", "10.64.196.10:9042"],
                                "datacenter": "us-east-1", "kafka_bootstrap": "10.64.192.20:9092",
                                "kafka_ca_cert_pem": "-----BEGIN CERTIFICATE-----\\nMIIBca\\n-----END CERTIFICATE-----\\n",
                                "cql_ca_cert_pem": "-----BEGIN CERTIFICATE-----\\nMIIBcq\\n-----END CERTIFICATE-----\\n"}
                }
              }
            }
            """;

    @Test
    void readsTheRegionsOutputOfTerraform() throws Exception {
        Path file = dir.resolve("outputs.json");
        Files.writeString(file, TERRAFORM_OUTPUT);

        DeploymentOutputs outputs = DeploymentOutputs.read(file);

        assertThat(outputs.regions()).containsOnlyKeys("us-east-1");
        DeploymentOutputs.RegionEndpoints r = outputs.regions().get("us-east-1");
        assertThat(r.brokerUrl()).isEqualTo("https://us-east-1.api.example.com");
        assertThat(r.kafkaBootstrap()).isEqualTo("10.64.192.20:9092");
        assertThat(r.cqlContactPoints()).containsExactly("10.64.192.10:9042", "10.64.196.10:9042");
        assertThat(r.datacenter()).isEqualTo("us-east-1");
        assertThat(r.kafkaCredentials()).isEmpty();
        // Terraform's Kafka listens with TLS only: its clients trust the deployment's CA, inline
        assertThat(r.kafkaTrust()).contains(new KafkaTrust.PemCertificates("-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----"));
        // and CQL is TLS only: its clients trust the CA of the nodes' certificates
        assertThat(r.cqlTrust()).contains(new CaCertificates("-----BEGIN CERTIFICATE-----\nMIIBcq\n-----END CERTIFICATE-----"));
    }

    @Test
    void whatItWritesItReadsBackInRegionOrder() {
        DeploymentOutputs outputs = new DeploymentOutputs(new java.util.LinkedHashMap<>(Map.of(
                "us-east-1", new DeploymentOutputs.RegionEndpoints("http://127.4.1.3:8080", "127.4.1.2:9092", List.of("127.4.1.11:9042"), "us-east-1",
                        Optional.of("/work/.stack/kafka-credentials"), Optional.of("-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----"),
                        Optional.of("-----BEGIN CERTIFICATE-----\nMIIBcq\n-----END CERTIFICATE-----")))));
        Path file = dir.resolve("sub/terraform-outputs.json");

        outputs.write(file);

        assertThat(DeploymentOutputs.read(file)).isEqualTo(outputs);
    }

    @Test
    void aFileWithoutTheOutputIsNamedWithTheCommandThatWritesIt() throws Exception {
        Path file = dir.resolve("other.json");
        Files.writeString(file, "{\"something\": {\"value\": 1}}");

        assertThatThrownBy(() -> DeploymentOutputs.read(file)).hasMessageContaining("has no output 'regions'").hasMessageContaining("output -json");
    }

    @Test
    void aRegionWithoutKafkaIsNamed() throws Exception {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, TERRAFORM_OUTPUT.replace("\"kafka_bootstrap\": \"10.64.192.20:9092\"", "\"kafka_bootstrap\": null"));

        assertThatThrownBy(() -> DeploymentOutputs.read(file)).hasMessageContaining("region us-east-1").hasMessageContaining("kafka_bootstrap");
    }

    @Test
    void notJsonAndMissingFilesAreOneLineErrors() throws Exception {
        Path file = dir.resolve("broken.json");
        Files.writeString(file, "{ not json");

        assertThatThrownBy(() -> DeploymentOutputs.read(file)).hasMessageContaining("is not JSON").message().doesNotContain("\n");
        assertThatThrownBy(() -> DeploymentOutputs.read(dir.resolve("absent.json"))).hasMessageContaining("does not exist");
    }
}
