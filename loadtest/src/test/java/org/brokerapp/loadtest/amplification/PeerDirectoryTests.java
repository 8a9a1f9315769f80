package org.brokerapp.loadtest.amplification;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.brokerapp.infra.host.AddressPlan;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PeerDirectoryTests {

    private static final AddressPlan PLAN = new AddressPlan(3);
    private static final NodeRef EAST_1 = node("us-east-1", 1, 1);
    private static final NodeRef EAST_2 = node("us-east-1", 1, 2);
    private static final NodeRef SYDNEY_1 = node("ap-southeast-2", 2, 1);
    private final PeerDirectory directory = new PeerDirectory(List.of(EAST_1, EAST_2, SYDNEY_1));

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(textBlock = """
            127.7.2.11_7000,   ap-southeast-2/1
            /127.7.2.11:7000,  ap-southeast-2/1
            127.7.2.11,        ap-southeast-2/1
            127.6.2.11_7000,   ap-southeast-2/1
            127.6.1.12_7000,   us-east-1/2
            127.7.1.11_7000,   us-east-1/1
            """)
    void aPeerIsFoundByItsWanFaceOrItsOwnAddressWhateverTheNotation(String peer, String node) {
        assertThat(directory.resolve(peer)).map(NodeRef::name).hasValue(node);
    }

    @ParameterizedTest
    @CsvSource({"127.7.3.11_7000", "127.0.0.1_7000", "127.6.1.13"})
    void aPeerOutsideTheDeploymentIsNotGuessed(String peer) {
        assertThat(directory.resolve(peer)).isEmpty();
    }

    static NodeRef node(String dc, int region, int node) {
        return new NodeRef(dc, node, PLAN.cassandraAddress(region, node), PLAN.cassandraWanAddress(region, node), PLAN.cassandraJmxPort(region, node));
    }
}
