package org.brokerapp.loadtest.drill;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.servers.CassandraDisk;
import org.brokerapp.loadtest.probe.ResultTable;
import org.brokerapp.loadtest.probe.WindowProbe;
import org.junit.jupiter.api.Test;

class DrillProbeTests {

    /** Records what the drill did, in order. */
    private static class RecordingFaults implements Faults {
        final List<String> done = new CopyOnWriteArrayList<>();
        /** What a region of several instances answers after a kill; empty: the killed broker was the only one. */
        Optional<Duration> takeOver = Optional.empty();

        @Override
        public void killBroker(String region) {
            done.add("kill " + region);
        }

        @Override
        public Optional<Duration> awaitBrokerTakeOver(String region) {
            done.add("await take-over " + region);
            return takeOver;
        }

        @Override
        public Duration restartBroker(String region) {
            done.add("restart " + region);
            return Duration.ofSeconds(12);
        }

        @Override
        public void killCassandraNode(String region) {
            done.add("kill cassandra " + region);
        }

        @Override
        public Duration restartCassandraNode(String region) {
            done.add("restart cassandra " + region);
            return Duration.ofSeconds(40);
        }

        @Override
        public String fillCassandraDisk(String region) {
            done.add("fill disk " + region);
            return "node 3 out of the cluster 4.0 s after its disk filled";
        }

        @Override
        public Duration freeCassandraDisk(String region) {
            done.add("free disk " + region);
            return Duration.ofSeconds(50);
        }

        @Override
        public void killKafka(String region) {
            done.add("kill kafka " + region);
        }

        @Override
        public Duration restartKafka(String region) {
            done.add("restart kafka " + region);
            return Duration.ofSeconds(7);
        }

        @Override
        public void cut(String region) {
            done.add("cut " + region);
        }

        @Override
        public void heal(String region) {
            done.add("heal " + region);
        }

        @Override
        public void stepBrokerClock(String region, Duration offset) {
            done.add("clock " + region + " " + offset);
        }
    }

    private final RecordingFaults faults = new RecordingFaults();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final Progress progress = new Progress(new PrintStream(out, true));

    @Test
    void aBrokerKillKillsThenRestartsOnceAndReportsTheDowntime() {
        DrillProbe probe = new DrillProbe(new Drill(Drill.Kind.BROKER_KILL, "us-east-1", Duration.ofMillis(50), Duration.ZERO), faults, progress);

        probe.windowStarted();
        probe.windowStarted();
        List<ResultTable> tables = probe.windowEnded(new WindowProbe.WindowFacts(60, 100, 100));

        assertThat(faults.done).containsExactly("kill us-east-1", "await take-over us-east-1", "restart us-east-1");
        assertThat(tables).singleElement().satisfies(t -> {
            assertThat(t.rows()).singleElement().satisfies(r -> {
                assertThat(r.label()).isEqualTo("Broker killed (SIGKILL)");
                assertThat(r.values().get(3)).isEqualTo("start-up 12.0 s");
            });
            assertThat(t.note()).contains("correctness check");
        });
        assertThat(out.toString()).contains("DRILL: kill -9 the us-east-1 broker");
    }

    @Test
    void aBrokerKillInARegionOfSeveralInstancesReportsTheTakeOverThenTheRestart() {
        faults.takeOver = Optional.of(Duration.ofMillis(14_200));
        DrillProbe probe = new DrillProbe(new Drill(Drill.Kind.BROKER_KILL, "us-east-1", Duration.ZERO, Duration.ZERO), faults, progress);

        probe.windowStarted();
        List<ResultTable> tables = probe.windowEnded(new WindowProbe.WindowFacts(60, 100, 100));

        assertThat(faults.done).containsExactly("kill us-east-1", "await take-over us-east-1", "restart us-east-1");
        List<ResultTable.Row> rows = tables.get(0).rows();
        assertThat(rows).extracting(ResultTable.Row::label)
                .containsExactly("Broker instance killed (SIGKILL); the others take over", "Killed instance back (ready)");
        assertThat(rows.get(0).values().get(2)).isEqualTo("14.2 s");
        assertThat(rows.get(0).values().get(3)).isEqualTo("take-over 14.2 s");
        assertThat(out.toString()).contains("DRILL: the surviving instances took over 14.2 s after the kill");
    }

    @Test
    void aKafkaKillKillsThenRestartsTheRegionsKafkaAfterItsLength() {
        DrillProbe probe = new DrillProbe(new Drill(Drill.Kind.KAFKA_KILL, "ap-southeast-2", Duration.ZERO, Duration.ofMillis(100)), faults, progress);

        probe.windowStarted();
        List<ResultTable> tables = probe.windowEnded(new WindowProbe.WindowFacts(60, 100, 100));

        assertThat(faults.done).containsExactly("kill kafka ap-southeast-2", "restart kafka ap-southeast-2");
        ResultTable.Row row = tables.get(0).rows().get(0);
        assertThat(row.label()).isEqualTo("Kafka killed (SIGKILL)");
        assertThat(row.values().get(3)).isEqualTo("start-up 7.0 s");
        assertThat(Double.parseDouble(row.values().get(2).replace(" s", ""))).isGreaterThanOrEqualTo(0.1);
        assertThat(tables.get(0).title()).isEqualTo("Drill: kill -9 of the ap-southeast-2 Kafka 0.0 s into the window, started again after 0.1 s");
    }

    @Test
    void aRecoveryThatEndsAfterTheWindowIsSaidToBeOutsideIt() {
        DrillProbe probe = new DrillProbe(new Drill(Drill.Kind.KAFKA_KILL, "ap-southeast-2", Duration.ZERO, Duration.ofMillis(300)), faults, progress);

        probe.windowStarted();
        List<ResultTable> tables = probe.windowEnded(new WindowProbe.WindowFacts(0.1, 10, 10));

        assertThat(tables.get(0).note()).startsWith("the recovery ended ").contains("after the 0.1 s window").contains("--duration over");
    }

    @Test
    void aRegionCutHealsAfterItsLength() {
        DrillProbe probe = new DrillProbe(new Drill(Drill.Kind.REGION_CUT, "ap-southeast-2", Duration.ZERO, Duration.ofMillis(200)), faults, progress);

        probe.windowStarted();
        List<ResultTable> tables = probe.windowEnded(new WindowProbe.WindowFacts(60, 100, 100));

        assertThat(faults.done).containsExactly("cut ap-southeast-2", "heal ap-southeast-2");
        ResultTable.Row row = tables.get(0).rows().get(0);
        assertThat(Double.parseDouble(row.values().get(2).replace(" s", ""))).isGreaterThanOrEqualTo(0.2);
    }

    @Test
    void aClockSkewStepsTheBrokersClockAheadAndLeavesIt() {
        DrillProbe probe = new DrillProbe(new Drill(Drill.Kind.CLOCK_SKEW, "us-east-1", Duration.ofMillis(100), Duration.ZERO), faults, progress);

        probe.windowStarted();
        List<ResultTable> tables = probe.windowEnded(new WindowProbe.WindowFacts(60, 100, 100));

        assertThat(faults.done).containsExactly("clock us-east-1 PT2S");
        ResultTable.Row row = tables.get(0).rows().get(0);
        assertThat(row.label()).isEqualTo("Broker clock 2.0 s ahead");
        assertThat(row.values().get(3)).isEqualTo("until the run ends");
        assertThat(tables.get(0).title()).isEqualTo("Drill: the us-east-1 broker's clock stepped 2.0 s ahead 0.1 s into the window, and left there");
    }

    @Test
    void aDiskFullFillsThenAfterItsLengthFreesAndRestartsAndReportsWhatTheNodeDid() {
        DrillProbe probe = new DrillProbe(new Drill(Drill.Kind.DISK_FULL, "us-east-1", Duration.ZERO, Duration.ofMillis(100)), faults, progress);

        probe.windowStarted();
        List<ResultTable> tables = probe.windowEnded(new WindowProbe.WindowFacts(60, 100, 100));

        assertThat(faults.done).containsExactly("fill disk us-east-1", "free disk us-east-1");
        ResultTable.Row row = tables.get(0).rows().get(0);
        assertThat(row.label()).isEqualTo("Cassandra data disk full");
        assertThat(Double.parseDouble(row.values().get(2).replace(" s", ""))).isGreaterThanOrEqualTo(0.1);
        assertThat(row.values().get(3)).isEqualTo("node 3 out of the cluster 4.0 s after its disk filled; freed and restarted in 50.0 s");
        assertThat(tables.get(0).title())
                .isEqualTo("Drill: the data disk of a us-east-1 Cassandra node filled 0.0 s into the window, freed 0.1 s later and the node restarted");
    }

    @Test
    void aCommitLogFullIsTheSameFaultOnTheOtherDiskAndSaysSo() {
        Drill drill = new Drill(Drill.Kind.COMMITLOG_FULL, "us-east-1", Duration.ZERO, Duration.ofMillis(100));
        DrillProbe probe = new DrillProbe(drill, faults, progress);

        probe.windowStarted();
        List<ResultTable> tables = probe.windowEnded(new WindowProbe.WindowFacts(60, 100, 100));

        assertThat(drill.filledDisk()).contains(CassandraDisk.COMMIT_LOG);
        assertThat(new Drill(Drill.Kind.DISK_FULL, "us-east-1", Duration.ZERO, Duration.ZERO).filledDisk()).contains(CassandraDisk.DATA);
        assertThat(new Drill(Drill.Kind.CASSANDRA_KILL, "us-east-1", Duration.ZERO, Duration.ZERO).filledDisk()).isEmpty();
        assertThat(faults.done).containsExactly("fill disk us-east-1", "free disk us-east-1");
        assertThat(tables.get(0).rows().get(0).label()).isEqualTo("Cassandra commit log disk full");
        assertThat(tables.get(0).title())
                .isEqualTo("Drill: the commit log disk of a us-east-1 Cassandra node filled 0.0 s into the window, freed 0.1 s later and the node restarted");
    }

    @Test
    void aFailedFaultIsReportedNotHidden() {
        Faults broken = new RecordingFaults() {
            @Override
            public void killBroker(String region) {
                throw new IllegalStateException("no such broker");
            }
        };
        DrillProbe probe = new DrillProbe(new Drill(Drill.Kind.BROKER_KILL, "us-east-1", Duration.ZERO, Duration.ZERO), broken, progress);

        probe.windowStarted();

        assertThat(probe.windowEnded(new WindowProbe.WindowFacts(60, 1, 1)).get(0).note()).isEqualTo("the drill failed: no such broker");
    }
}
