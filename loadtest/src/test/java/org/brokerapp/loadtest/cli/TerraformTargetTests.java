package org.brokerapp.loadtest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.brokerapp.loadtest.deployment.CqlEndpoint;
import org.brokerapp.loadtest.deployment.EndpointsTarget;
import org.brokerapp.regions.CqlLogin;
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

    /** A self-signed CA certificate (public part only), made with openssl for these tests. */
    static final String CA = "-----BEGIN CERTIFICATE-----\\n"
            + "MIIBjzCCATWgAwIBAgIUJNo6CeLTCYV4bSSSZJrdqXtH6zAwCgYIKoZIzj0EAwIw\\n"
            + "HDEaMBgGA1UEAwwRYnJva2VyYXBwIHRlc3QgQ0EwIBcNMjYxMTI0MTk0OTA5WhgP\\n"
            + "MjEyNjEwMzExOTQ5MDlaMBwxGjAYBgNVBAMMEWJyb2tlcmFwcCB0ZXN0IENBMFkw\\n"
            + "EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEHdgF8g1vjyfK6AW6j/s0K3hWCoqI7ipM\\n"
            + "jTLQjmxc58bSUJXknN5PZhVoyNtaog1TgCuY5G/vyDj1arCZJxfx/aNTMFEwHQYD\\n"
            + "VR0OBBYEFL6ATkhePvb0DyDKm7IQhiMLIqWpMB8GA1UdIwQYMBaAFL6ATkhePvb0\\n"
            + "DyDKm7IQhiMLIqWpMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIh\\n"
            + "APg5pxqaZGvwUgycW5AeVolQK6dIwen0ybbcRiOrQ70JAiBwdHzaH7EQSngfgEJE\\n"
            + "qa62Z6kt7oOwB0YLjEXp53IViA==\\n"
            + "-----END CERTIFICATE-----\\n";

    @Test
    void theFloorWritesOverTlsWhereTheFileNamesACqlCaAndLogsInWithTheRoleGiven() throws Exception {
        Path file = Files.writeString(dir.resolve("outputs.json"), OUTPUT.replace("\"datacenter\": \"ap-southeast-2\",",
                "\"datacenter\": \"ap-southeast-2\", \"cql_ca_cert_pem\": \"" + CA + "\","));
        Path password = Files.writeString(dir.resolve("loadtest.password"), "s3cret\n");

        RunPlan plan = CliOptions.parse(new String[] {"--preset", "smoke", "--target-terraform", file.toString(), "--cql-login", "loadtest=" + password});

        TargetPlan.Endpoints e = (TargetPlan.Endpoints) plan.target();
        assertThat(e.cql().get("ap-southeast-2").tls()).isPresent();
        assertThat(e.cql().get("us-east-1").tls()).as("no CA named for it: plain CQL").isEmpty();
        assertThat(e.cql().get("ap-southeast-2").login()).contains(new CqlLogin("loadtest", "s3cret"));
        assertThat(e.cql().get("ap-southeast-2").toString()).endsWith("over TLS as loadtest").doesNotContain("s3cret");
    }

    @Test
    void aBadCqlCaOrLoginIsAOneLineUsageError() throws Exception {
        Path file = Files.writeString(dir.resolve("outputs.json"), OUTPUT.replace("\"datacenter\": \"ap-southeast-2\",",
                "\"datacenter\": \"ap-southeast-2\", \"cql_ca_cert_pem\": \"-----BEGIN CERTIFICATE-----\\nMIIBca\\n-----END CERTIFICATE-----\","));

        assertThatThrownBy(() -> CliOptions.parse(new String[] {"--target-terraform", file.toString()}))
                .isInstanceOf(UsageException.class).hasMessageContaining("region ap-southeast-2's cql_ca_cert_pem");
        Path good = Files.writeString(dir.resolve("good.json"), OUTPUT);
        assertThatThrownBy(() -> CliOptions.parse(new String[] {"--target-terraform", good.toString(), "--cql-login", "loadtest"}))
                .isInstanceOf(UsageException.class).hasMessageContaining("ROLE=PASSWORD_FILE");
        assertThatThrownBy(() -> CliOptions.parse(new String[] {"--target-terraform", good.toString(), "--cql-login", "loadtest=" + dir.resolve("absent")}))
                .isInstanceOf(UsageException.class).hasMessageContaining("cannot read the password file");
        assertThatThrownBy(() -> CliOptions.parse(new String[] {"--cql-login", "loadtest=" + dir.resolve("absent")}))
                .isInstanceOf(UsageException.class).hasMessageContaining("is for an existing deployment");
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
