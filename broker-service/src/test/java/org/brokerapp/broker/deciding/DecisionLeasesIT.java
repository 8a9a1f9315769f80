package org.brokerapp.broker.deciding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import com.datastax.oss.driver.api.core.CqlSession;
import org.brokerapp.broker.schema.BrokerCql;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.junit.jupiter.api.Test;

/**
 * The decision lease as a fence, against the real us-east-1 DC: two holders of one consumer
 * group's partition are never both deciding, and a holder that stops renewing (what a broker cut
 * off from Kafka but not from Cassandra looks like) stops deciding well before the other may start.
 */
@BrokersTest
class DecisionLeasesIT {

    private static final String GROUP = "lease-tests";
    private static final String SYMBOL = "IBM";

    @Test
    void aLeaseHasOneHolderAndLapsesLongBeforeTheNextOneDecides(Brokers brokers) throws Exception {
        try (CqlSession session = brokers.stack().cqlSession("us-east-1")) {
            BrokerCql cql = new BrokerCql(session, Brokers.KEYSPACE);
            try (DecisionLeases first = new DecisionLeases(session, cql, GROUP, "first");
                 DecisionLeases second = new DecisionLeases(session, cql, GROUP, "second")) {
                assertThat(first.acquire(Map.of(0, Set.of(SYMBOL)), Duration.ofSeconds(5))).isTrue();
                assertThat(first.covers(SYMBOL)).isTrue();
                assertThat(first.covers("AAPL")).as("a symbol of a partition it does not hold").isFalse();

                assertThat(second.acquire(Map.of(0, Set.of(SYMBOL)), Duration.ofSeconds(3))).isFalse();
                assertThat(second.covers(SYMBOL)).isFalse();
                Brokers.sleep(2_000);
                assertThat(first.covers(SYMBOL)).as("still valid: renewed every 3 s, valid for 7 s").isTrue();

                long firstEpoch = first.epochOf(SYMBOL).orElseThrow();
                // the first holder freezes: no renewal, no release; the second keeps trying in the background
                first.close();
                long frozeAt = System.nanoTime();
                long firstStopped = 0;
                long secondStarted = 0;
                while (secondStarted == 0 && System.nanoTime() - frozeAt < Duration.ofSeconds(30).toNanos()) {
                    boolean a = first.covers(SYMBOL);
                    boolean b = second.covers(SYMBOL);
                    assertThat(a && b).as("both holders deciding at once").isFalse();
                    if (!a && firstStopped == 0) {
                        firstStopped = System.nanoTime();
                    }
                    if (b) {
                        secondStarted = System.nanoTime();
                    }
                    Thread.sleep(20);
                }
                assertThat(firstStopped).as("the frozen holder stopped deciding").isPositive();
                assertThat(secondStarted).as("the second holder took the lapsed lease").isPositive();
                Duration gap = Duration.ofNanos(secondStarted - firstStopped);
                System.out.printf("decision lease handover after a freeze: first stopped %d ms after its freeze, second started %d ms later%n",
                        Duration.ofNanos(firstStopped - frozeAt).toMillis(), gap.toMillis());
                // longer than the 5 s request timeout: every write the first had started has ended
                assertThat(gap).isGreaterThan(Duration.ofSeconds(5));
                assertThat(second.epochOf(SYMBOL).orElseThrow()).as("the next holder's epoch").isGreaterThan(firstEpoch);
                assertThat(first.epochOf(SYMBOL)).as("the frozen holder has no epoch to decide under").isEmpty();

                // a released lease is taken at once
                second.release(Set.of(0));
                assertThat(second.covers(SYMBOL)).isFalse();
                try (DecisionLeases third = new DecisionLeases(session, cql, GROUP, "third")) {
                    long asked = System.nanoTime();
                    assertThat(third.acquire(Map.of(0, Set.of(SYMBOL)), Duration.ofSeconds(5))).isTrue();
                    assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofSeconds(3));
                    third.release(Set.of(0));
                }
            }
        }
    }
}
