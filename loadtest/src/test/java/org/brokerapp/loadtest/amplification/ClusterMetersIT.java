package org.brokerapp.loadtest.amplification;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import org.brokerapp.infra.host.Await;
import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.stack.LocalStack;
import org.junit.jupiter.api.Test;

/** The meters against real nodes: N rows written at LOCAL_QUORUM land N x RF times in every DC. */
@LocalStackTest
class ClusterMetersIT {

    private static final int ROWS = 200;

    @Test
    void replicaWritesPerDcAreRowsTimesThatDcsReplicationFactor(LocalStack stack) {
        String home = stack.regions().names().get(0);
        ClusterMeters meters = ClusterMeters.of(stack, "amplification_probe");
        try (CqlSession session = stack.cqlSession(home)) {
            session.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS amplification_probe WITH replication = "
                    + stack.regions().networkTopologyReplication()).setTimeout(Duration.ofSeconds(30)));
            session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS amplification_probe.rows (id uuid PRIMARY KEY, payload text)")
                    .setTimeout(Duration.ofSeconds(30)));
            stack.awaitSchemaAgreement(Duration.ofSeconds(120));
            PreparedStatement insert = session.prepare("INSERT INTO amplification_probe.rows (id, payload) VALUES (?, ?)");

            ClusterSnapshot before = meters.snapshot();
            for (int i = 0; i < ROWS; i++) {
                session.execute(insert.bind(UUID.randomUUID(), "x".repeat(100)).setConsistencyLevel(ConsistencyLevel.LOCAL_QUORUM));
            }
            WriteAmplification wa = awaitRemoteReplicas(meters, before, stack);

            System.out.print(AmplificationTable.perDc(wa));
            for (DcAmplification dc : wa.dcs()) {
                long expected = (long) ROWS * dc.replicationFactor();
                assertThat(dc.replicaWrites()).as("replica writes in %s", dc.datacenter()).isBetween(expected, expected + expected / 10);
                assertThat(dc.crossDcOut().bytes()).as("bytes sent from %s to other DCs", dc.datacenter()).isPositive();
                assertThat(dc.crossDcIn().bytes()).as("bytes received by %s from other DCs", dc.datacenter()).isPositive();
            }
            assertThat(wa.dcs().get(0).clientMutations()).isEqualTo(ROWS);
            assertThat(wa.measuredFactor()).isBetween(wa.theoreticalFactor() * 1.0, wa.theoreticalFactor() * 1.1);
            assertThat(wa.unknownPeers()).isEmpty();
        }
    }

    /** A LOCAL_QUORUM write is acknowledged before the remote DC applies it: wait until it has (or 30 s pass). */
    private static WriteAmplification awaitRemoteReplicas(ClusterMeters meters, ClusterSnapshot before, LocalStack stack) {
        return Await.await("every DC applied the " + ROWS + " writes", Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> WriteAmplification.between(before, meters.snapshot(), ROWS, stack.regions()),
                        wa -> wa.dcs().stream().allMatch(dc -> dc.replicaWrites() >= (long) ROWS * dc.replicationFactor()));
    }
}
