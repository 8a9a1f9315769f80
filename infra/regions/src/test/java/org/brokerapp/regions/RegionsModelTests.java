package org.brokerapp.regions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Moving an exchange to the region that adopted it (regional failover, issue #5). */
class RegionsModelTests {

    private static final RegionsModel DEFAULT = RegionsFile.loadDefault();

    @Test
    void aMovedExchangeIsHomedInTheAdopterAndEverythingElseStays() {
        RegionsModel moved = DEFAULT.withExchangeMovedTo("NYSE", "ap-southeast-2");

        assertThat(moved.homeOf("NYSE")).map(Region::name).hasValue("ap-southeast-2");
        assertThat(moved.region("us-east-1").exchanges()).containsExactly("NASDAQ");
        assertThat(moved.region("ap-southeast-2").exchanges()).containsExactly("ASX", "NYSE");
        assertThat(moved.names()).containsExactly("us-east-1", "ap-southeast-2");
        assertThat(moved.wan()).isEqualTo(DEFAULT.wan());
        assertThat(moved.replicationFactors()).isEqualTo(DEFAULT.replicationFactors());
        assertThat(moved.region("ap-southeast-2").georegion()).isEqualTo(DEFAULT.region("ap-southeast-2").georegion());
        // the original is untouched
        assertThat(DEFAULT.homeOf("NYSE")).map(Region::name).hasValue("us-east-1");
    }

    @Test
    void movingToTheRegionThatListsItAlreadyChangesNothing() {
        assertThat(DEFAULT.withExchangeMovedTo("NYSE", "us-east-1")).isEqualTo(DEFAULT);
    }

    @Test
    void movesChainAndAMovedExchangeCanMoveOnOrBack() {
        RegionsModel three = RegionsFile.parse(new ByteArrayInputStream("""
                regions:
                  - {name: a, datacenter: a, exchanges: [X, Y], cassandra-nodes: 1}
                  - {name: b, datacenter: b, exchanges: [Z], cassandra-nodes: 1}
                  - {name: c, datacenter: c, exchanges: [W], cassandra-nodes: 1}
                """.getBytes(StandardCharsets.UTF_8)), "test.yaml");

        RegionsModel moved = three.withExchangeMovedTo("X", "b").withExchangeMovedTo("X", "c");

        assertThat(moved.region("a").exchanges()).containsExactly("Y");
        assertThat(moved.region("b").exchanges()).containsExactly("Z");
        assertThat(moved.region("c").exchanges()).containsExactly("W", "X");
        assertThat(moved.withExchangeMovedTo("X", "a").region("a").exchanges()).containsExactly("Y", "X");
    }

    @ParameterizedTest(name = "{0} to {1}")
    @CsvSource(delimiter = '|', textBlock = """
            LSE  | ap-southeast-2 | unknown exchange 'LSE'; known: [NYSE, NASDAQ, ASX]
            NYSE | eu-west-2      | unknown region 'eu-west-2'; known: [us-east-1, ap-southeast-2]
            """)
    void anImpossibleMoveIsRefusedInOneLine(String exchange, String region, String message) {
        assertThatThrownBy(() -> DEFAULT.withExchangeMovedTo(exchange, region))
                .isInstanceOf(InvalidRegionsException.class)
                .hasMessage(message);
    }

    @Test
    void aRegionWhoseBrokerIsGoneCanGiveAwayEveryExchange() {
        RegionsModel virginiaGone = DEFAULT.withExchangeMovedTo("NYSE", "ap-southeast-2").withExchangeMovedTo("NASDAQ", "ap-southeast-2");

        assertThat(virginiaGone.region("us-east-1").exchanges()).isEmpty();
        assertThat(virginiaGone.region("ap-southeast-2").exchanges()).containsExactly("ASX", "NYSE", "NASDAQ");
        assertThat(virginiaGone.homeOf("NASDAQ").orElseThrow().name()).isEqualTo("ap-southeast-2");
    }
}
