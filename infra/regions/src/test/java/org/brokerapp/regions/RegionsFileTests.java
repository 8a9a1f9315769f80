package org.brokerapp.regions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RegionsFileTests {

    @Test
    void theDefaultDeploymentIsTheTwoRegionsOfThePrototype() {
        RegionsModel model = RegionsFile.loadDefault();

        assertThat(model.names()).containsExactly("us-east-1", "ap-southeast-2");
        assertThat(model.homeOf("NYSE")).map(Region::name).hasValue("us-east-1");
        assertThat(model.homeOf("NASDAQ")).map(Region::name).hasValue("us-east-1");
        assertThat(model.homeOf("ASX")).map(Region::name).hasValue("ap-southeast-2");
        assertThat(model.homeOf("LSE")).isEmpty();
        assertThat(model.roundTrip("us-east-1", "ap-southeast-2")).isEqualTo(Duration.ofMillis(230));
        assertThat(model.region("us-east-1").replicationFactor()).isEqualTo(2);
        assertThat(model.networkTopologyReplication())
                .isEqualTo("{'class': 'NetworkTopologyStrategy', 'us-east-1': 2, 'ap-southeast-2': 2}");
        assertThat(model.regions()).extracting(Region::cassandraInstanceType).containsExactly("m6i.large", "m6i.large");
        assertThat(model.regions()).extracting(Region::vpcCidr).containsExactly("10.64.0.0/16", "10.65.0.0/16");
    }

    @Test
    void aVpcBlockIsOptionalAndMustBeOne() {
        RegionsModel model = parse("""
                regions:
                  - {name: us-east-1, datacenter: us-east-1, exchanges: [NYSE], cassandra-nodes: 2, vpc-cidr: 10.64.0.0/16}
                  - {name: eu-west-2, datacenter: eu-west-2, exchanges: [LSE], cassandra-nodes: 1}
                """);

        assertThat(model.region("eu-west-2").vpcCidr()).isNull();
        assertThat(model.withExchangeMovedTo("LSE", "us-east-1").region("us-east-1").vpcCidr()).isEqualTo("10.64.0.0/16");
        assertThatThrownBy(() -> parse("regions: [{name: us-east-1, datacenter: dc1, exchanges: [NYSE], cassandra-nodes: 1, vpc-cidr: 10.64.0.0/8}]"))
                .isInstanceOf(InvalidRegionsException.class).hasMessageContaining("vpc-cidr must be an IPv4 block");
    }

    @Test
    void theInstanceTypeIsOptionalAndSurvivesResizing() {
        RegionsModel model = parse("""
                regions:
                  - {name: us-east-1, datacenter: us-east-1, exchanges: [NYSE], cassandra-nodes: 2, cassandra-instance-type: t3.small}
                  - {name: eu-west-2, datacenter: eu-west-2, exchanges: [LSE], cassandra-nodes: 1}
                """);

        assertThat(model.region("eu-west-2").cassandraInstanceType()).isNull();
        assertThat(model.withCassandraNodesPerRegion(1).region("us-east-1").cassandraInstanceType()).isEqualTo("t3.small");
        assertThat(model.withExchangeMovedTo("LSE", "us-east-1").region("us-east-1").cassandraInstanceType()).isEqualTo("t3.small");
    }

    @Test
    void thePackagedDefaultIsTheRepositoryFile() {
        assertThat(RegionsFile.load(Path.of("../regions.yaml"))).isEqualTo(RegionsFile.loadDefault());
    }

    @Test
    void aThirdRegionIsConfigurationOnly() {
        RegionsModel model = parse("""
                regions:
                  - {name: us-east-1, datacenter: us-east-1, exchanges: [NYSE, NASDAQ], cassandra-nodes: 2}
                  - {name: ap-southeast-2, datacenter: ap-southeast-2, exchanges: [ASX], cassandra-nodes: 2}
                  - {name: eu-west-2, georegion: London, datacenter: eu-west-2, exchanges: [LSE], cassandra-nodes: 1}
                wan:
                  default-one-way-latency-ms: 115
                  links:
                    - {between: [us-east-1, eu-west-2], one-way-latency-ms: 38}
                """);

        assertThat(model.homeOf("LSE")).map(Region::georegion).hasValue("London");
        assertThat(model.oneWayLatency("eu-west-2", "us-east-1")).isEqualTo(Duration.ofMillis(38));
        assertThat(model.oneWayLatency("eu-west-2", "ap-southeast-2")).isEqualTo(Duration.ofMillis(115));
        assertThat(model.oneWayLatency("eu-west-2", "eu-west-2")).isZero();
        assertThat(model.region("eu-west-2").replicationFactor()).isEqualTo(1);
        assertThat(model.replicationFactors()).containsExactly(
                Map.entry("us-east-1", 2), Map.entry("ap-southeast-2", 2), Map.entry("eu-west-2", 1));
    }

    @Test
    void resizingEveryDataCenterKeepsTheRest() {
        RegionsModel model = RegionsFile.loadDefault().withCassandraNodesPerRegion(3);

        assertThat(model.regions()).allSatisfy(r -> assertThat(r.replicationFactor()).isEqualTo(3));
        assertThat(model.names()).containsExactly("us-east-1", "ap-southeast-2");
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
            regions: []                                                                                    | no regions are defined
            regions: [{name: a, datacenter: a, exchanges: [X], cassandra-nodes: 4}]                        | cassandra-nodes must be 1 to 3
            regions: [{name: a, datacenter: a, exchanges: [X], cassandra-nodes: 0}]                        | cassandra-nodes must be 1 to 3
            regions: [{name: a, datacenter: a, exchanges: [], cassandra-nodes: 1}]                         | lists no exchanges
            regions: [{name: a, exchanges: [X], cassandra-nodes: 1}]                                       | datacenter is missing
            regions: [{name: a, datacenter: a, exchanges: [X], cassandra-nodes: 1, colour: red}]           | colour
            regions: [{name: a, datacenter: d, exchanges: [X], cassandra-nodes: 1}, {name: a, datacenter: e, exchanges: [Y], cassandra-nodes: 1}] | duplicate region name: a
            regions: [{name: a, datacenter: d, exchanges: [X], cassandra-nodes: 1}, {name: b, datacenter: d, exchanges: [Y], cassandra-nodes: 1}] | duplicate datacenter: d
            regions: [{name: a, datacenter: d, exchanges: [X], cassandra-nodes: 1}, {name: b, datacenter: e, exchanges: [X], cassandra-nodes: 1}] | duplicate exchange
            'regions: [{name: a, datacenter: a, exchanges: [X], cassandra-nodes: 1}]\nwan: {links: [{between: [a, z], one-way-latency-ms: 5}]}' | unknown region z
            'regions: [{name: a, datacenter: a, exchanges: [X], cassandra-nodes: 1}]\nwan: {default-one-way-latency-ms: -1}' | must be >= 0
            'regions: [{name: a, datacenter: a, exchanges: [X], cassandra-nodes: two}]'                    | cassandra-nodes
            'regions: [{name: a, datacenter: a, exchanges: [X], cassandra-nodes: 1, cassandra-instance-type: big}]' | cassandra-instance-type must be an EC2 instance type
            """)
    void anImpossibleDeploymentIsRefusedWithAMessageNamingTheProblem(String yaml, String expected) {
        assertThatThrownBy(() -> parse(yaml.replace("\\n", "\n")))
                .isInstanceOf(InvalidRegionsException.class)
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void aMissingFileIsNamed() {
        assertThatThrownBy(() -> RegionsFile.load(Path.of("no/such/regions.yaml")))
                .isInstanceOf(InvalidRegionsException.class)
                .hasMessageContaining("no/such/regions.yaml");
    }

    @Test
    void anUnknownRegionIsNamedWithTheKnownOnes() {
        assertThatThrownBy(() -> RegionsFile.loadDefault().region("mars-1"))
                .hasMessage("unknown region 'mars-1'; known: [us-east-1, ap-southeast-2]");
    }

    private static RegionsModel parse(String yaml) {
        return RegionsFile.parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "test.yaml");
    }
}
