package org.brokerapp.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import org.brokerapp.infra.host.Await;
import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.regions.Region;
import org.junit.jupiter.api.Test;

@LocalStackTest
class ClusterFormationIT {

    private final LocalStack stack;

    ClusterFormationIT(LocalStack stack) {
        this.stack = stack;
    }

    @Test
    void everyNodeSeesEveryNodeUpAndNormalInItsConfiguredDataCenter() {
        List<CassandraNode> nodes = stack.layout().cassandra();
        assertThat(nodes).hasSize(stack.regions().regions().stream().mapToInt(Region::cassandraNodes).sum());

        for (CassandraNode observer : nodes) {
            List<NodeStatus> view = stack.clusterViewFrom(observer);
            assertThat(view).as("cluster as %s sees it", observer.name()).hasSameSizeAs(nodes);
            for (CassandraNode node : nodes) {
                assertThat(view).as("%s seen from %s", node.name(), observer.name())
                        .contains(new NodeStatus(node.wanAddress(), node.region().datacenter(), true, true));
            }
        }
        assertThat(stack.allNodesUpNormal()).isTrue();
    }

    @Test
    void everyNodesJvmRunsWithTheLaunchersTimerSlackInEveryThread() throws IOException {
        // 0 keeps what the launching process has, as a child thread inherits it
        String expected = CassandraNode.TIMER_SLACK_MICROS > 0 ? Long.toString(CassandraNode.TIMER_SLACK_MICROS * 1000)
                : Files.readString(Path.of("/proc/self/timerslack_ns")).strip();
        for (CassandraNode node : stack.layout().cassandra()) {
            long pid = stack.processes().stream().filter(p -> p.name().equals(node.name())).findFirst().orElseThrow().pid();
            assertThat(Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")))
                    .as("%s: the launcher's shell replaced itself with the JVM, which keeps its PID", node.name()).contains(CassandraNode.MAIN_CLASS);
            try (Stream<Path> threads = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                // procfs serves a thread's timer slack at /proc/<thread id>/timerslack_ns, not under task/
                List<String> slacks = threads.map(t -> Path.of("/proc", t.getFileName().toString(), "timerslack_ns"))
                        .map(ClusterFormationIT::readIfThere).flatMap(Optional::stream).distinct().toList();
                assertThat(slacks).as("timer slack of %s's threads", node.name()).containsExactly(expected);
            }
        }
    }

    /** A thread may end between the listing and the read. */
    private static Optional<String> readIfThere(Path file) {
        try {
            return Optional.of(Files.readString(file).strip());
        } catch (IOException ended) {
            return Optional.empty();
        }
    }

    @Test
    void aKeyspaceReplicatedPerTheRegionsModelCarriesALocalQuorumWriteFromOneRegionToTheOther() {
        String a = stack.regions().names().get(0);
        String b = stack.regions().names().get(1);
        try (CqlSession inA = stack.cqlSession(a); CqlSession inB = stack.cqlSession(b)) {
            inA.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS formation WITH replication = "
                    + stack.regions().networkTopologyReplication()).setTimeout(Duration.ofSeconds(30)));
            inA.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS formation.notes (id uuid PRIMARY KEY, body text)")
                    .setTimeout(Duration.ofSeconds(30)));
            stack.awaitSchemaAgreement(Duration.ofSeconds(120));

            // b's driver learns of the new keyspace from a schema event, a moment later: ask until it has it
            Map<String, String> replication = Await.value("keyspace formation in " + b + "'s schema metadata", Duration.ofSeconds(30),
                    () -> inB.refreshSchema().getKeyspace("formation").map(k -> k.getReplication()).orElse(null));
            stack.regions().replicationFactors().forEach((dc, rf) -> assertThat(replication).containsEntry(dc, rf.toString()));

            UUID id = UUID.randomUUID();
            inA.execute(SimpleStatement.newInstance("INSERT INTO formation.notes (id, body) VALUES (?, ?)", id, "written in " + a)
                    .setConsistencyLevel(ConsistencyLevel.LOCAL_QUORUM));

            Row row = Await.value("the row written in " + a + " readable in " + b, Duration.ofSeconds(30), () -> readInB(inB, id));
            assertThat(row.getString("body")).isEqualTo("written in " + a);
        }
    }

    /** The row, or null while it has not reached {@code b}. */
    private static Row readInB(CqlSession inB, UUID id) {
        return inB.execute(SimpleStatement.newInstance("SELECT body FROM formation.notes WHERE id = ?", id)
                .setConsistencyLevel(ConsistencyLevel.LOCAL_QUORUM)).one();
    }
}
