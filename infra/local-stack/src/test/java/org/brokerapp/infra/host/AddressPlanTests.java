package org.brokerapp.infra.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class AddressPlanTests {

    @Test
    void eachRegionHasItsOwnSliceAndAWanFaceApart() {
        AddressPlan plan = new AddressPlan(0);

        assertThat(plan.cassandraAddress(1, 1)).isEqualTo("127.0.1.11");
        assertThat(plan.cassandraWanAddress(1, 1)).isEqualTo("127.1.1.11");
        assertThat(plan.cassandraAddress(2, 3)).isEqualTo("127.0.2.13");
        assertThat(plan.kafkaAddress(2)).isEqualTo("127.0.2.2");
        assertThat(plan.wanControlAddress()).isEqualTo("127.0.0.1");
    }

    @Test
    void twoInstancesShareNoAddressAndNoJmxPort() {
        Set<String> seen = new HashSet<>();
        for (int instance = 0; instance <= 1; instance++) {
            AddressPlan plan = new AddressPlan(instance);
            for (int region = 1; region <= 3; region++) {
                for (int node = 1; node <= 3; node++) {
                    assertThat(seen.add(plan.cassandraAddress(region, node))).isTrue();
                    assertThat(seen.add(plan.cassandraWanAddress(region, node))).isTrue();
                    assertThat(seen.add("jmx:" + plan.cassandraJmxPort(region, node))).isTrue();
                }
                assertThat(seen.add(plan.kafkaAddress(region))).isTrue();
            }
            assertThat(seen.add(plan.wanControlAddress())).isTrue();
        }
    }

    @Test
    void anInstanceOutsideTheLoopbackRangeIsRefused() {
        assertThatThrownBy(() -> new AddressPlan(61)).isInstanceOf(StackException.class).hasMessageContaining("0 to 60");
    }
}
