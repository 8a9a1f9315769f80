package org.brokerapp.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.host.ServerProcess;
import org.junit.jupiter.api.Test;

/**
 * A stack starts again on its own data (issue #59): stopped ({@code stack down}), or with every
 * process killed as a crash would, then started without {@code --clean}, every node comes back up
 * and normal in its DC and every row is kept. A stack of its own (two regions of two Cassandra nodes:
 * a seed and a node that is not, whose shadow round failed), WAN emulated, no search, no metrics,
 * on instance {@code stack.restart-instance} (default: the shared stack's + 12).
 */
class StackRestartIT {

    private static final String KEYSPACE = "restart_it";

    @Test
    void aStackStoppedOrKilledStartsAgainOnItsDataWithEveryNodeUpAndEveryRowKept() {
        int instance = Integer.getInteger("stack.restart-instance", Integer.getInteger("stack.instance", 1) + 12);
        StackSettings settings = StackSettings.defaults(Path.of("target/restart-stack"), instance).withSearch(false).withMetrics(false);
        String args = "--work-dir " + settings.workDir() + " --instance " + instance + " --no-search --no-metrics";
        Progress progress = new Progress(System.out);
        UUID beforeStop = UUID.randomUUID();
        UUID beforeKill = UUID.randomUUID();

        try (LocalStack first = LocalStack.start(settings, true, args, progress)) {
            createKeyspace(first);
            write(first, beforeStop);
        }
        LocalStack second = LocalStack.start(settings, false, args, progress);
        try {
            assertThat(second.allNodesUpNormal()).as("every node up and normal after a stop").isTrue();
            assertThat(readEverywhere(second, beforeStop)).as("the row written before the stop, in every region").containsOnly(true);
            write(second, beforeKill);
            second.processes().forEach(ServerProcess::kill);
        } finally {
            second.close();
        }
        try (LocalStack third = LocalStack.start(settings, false, args, progress)) {
            assertThat(third.allNodesUpNormal()).as("every node up and normal after every process was killed").isTrue();
            assertThat(readEverywhere(third, beforeStop)).containsOnly(true);
            assertThat(readEverywhere(third, beforeKill)).as("the row written before the kill, in every region").containsOnly(true);
        }
    }

    private static final java.time.Duration DDL_TIMEOUT = java.time.Duration.ofSeconds(30);

    private static void createKeyspace(LocalStack stack) {
        StringBuilder replication = new StringBuilder("{'class': 'NetworkTopologyStrategy'");
        for (String region : stack.regions().names()) {
            replication.append(", '").append(stack.localDatacenter(region)).append("': 2");
        }
        try (CqlSession session = stack.cqlSession(stack.regions().names().get(0))) {
            // a schema change waits for every node of a cluster that has just formed: the driver's 2 s request timeout
            // was too short in CI (the brokers' own migrations allow 60 s)
            session.execute(SimpleStatement.newInstance("CREATE KEYSPACE " + KEYSPACE + " WITH replication = " + replication + "}")
                    .setTimeout(DDL_TIMEOUT));
            session.execute(SimpleStatement.newInstance("CREATE TABLE " + KEYSPACE + ".rows (id uuid PRIMARY KEY)").setTimeout(DDL_TIMEOUT));
        }
        stack.awaitSchemaAgreement(java.time.Duration.ofSeconds(60));
    }

    /** Written to every DC before it answers. */
    private static void write(LocalStack stack, UUID id) {
        try (CqlSession session = stack.cqlSession(stack.regions().names().get(0))) {
            session.execute(SimpleStatement.newInstance("INSERT INTO " + KEYSPACE + ".rows (id) VALUES (?)", id)
                    .setConsistencyLevel(ConsistencyLevel.EACH_QUORUM));
        }
    }

    private static List<Boolean> readEverywhere(LocalStack stack, UUID id) {
        return stack.regions().names().stream().map(region -> {
            try (CqlSession session = stack.cqlSession(region)) {
                return session.execute(SimpleStatement.newInstance("SELECT id FROM " + KEYSPACE + ".rows WHERE id = ?", id)
                        .setConsistencyLevel(ConsistencyLevel.LOCAL_QUORUM)).one() != null;
            }
        }).toList();
    }
}
