package org.brokerapp.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ProcessCpuTests {

    @Test
    void aProcessIsNamedByItsCommandLine() {
        assertThat(List.of(
                ProcessCpu.kindOf("java -Xmx512m -cp lib/* org.apache.cassandra.service.CassandraDaemon"),
                ProcessCpu.kindOf("java -cp lib/* kafka.Kafka /x/server.properties"),
                ProcessCpu.kindOf("/root/.local/bin/toxiproxy-server -host 127.0.0.1"),
                ProcessCpu.kindOf("java -jar logs/broker-service.jar --broker.region=us-east-1"),
                ProcessCpu.kindOf("java -jar other.jar --broker.region=us-east-1"),
                ProcessCpu.kindOf("java -cp x org.brokerapp.loadtest.cli.LoadTestCli"),
                ProcessCpu.kindOf("sleep 60")))
                .containsExactly(ProcessCpu.Kind.CASSANDRA, ProcessCpu.Kind.KAFKA, ProcessCpu.Kind.TOXIPROXY, ProcessCpu.Kind.BROKER,
                        ProcessCpu.Kind.BROKER, ProcessCpu.Kind.HARNESS, ProcessCpu.Kind.OTHER);
    }

    @Test
    void thisProcessesCpuGrowsWithWorkAndAGoneProcessHasNoReading() {
        long self = ProcessHandle.current().pid();
        Duration before = ProcessCpu.cpuTime(self).orElseThrow();
        // spin until this thread itself has used 200 ms of CPU (by its own clock): wall time says nothing on a busy machine
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        long sink = 0;
        while (threads.getCurrentThreadCpuTime() - start < 200_000_000L) {
            sink += Long.numberOfTrailingZeros(sink + System.nanoTime());
        }

        Duration after = ProcessCpu.cpuTime(self).orElseThrow();

        assertThat(sink).isNotNegative();
        // the kernel counts in 10 ms ticks
        assertThat(after.minus(before)).isGreaterThanOrEqualTo(Duration.ofMillis(180));
        assertThat(ProcessCpu.cpuTime(Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void cpuIsSummedPerKindOverProcessesSeenInBothReadings() {
        Map<Long, ProcessCpu.Reading> before = Map.of(
                1L, new ProcessCpu.Reading(1, ProcessCpu.Kind.CASSANDRA, Duration.ofMillis(1_000)),
                2L, new ProcessCpu.Reading(2, ProcessCpu.Kind.CASSANDRA, Duration.ofMillis(2_000)),
                3L, new ProcessCpu.Reading(3, ProcessCpu.Kind.KAFKA, Duration.ofMillis(500)));
        Map<Long, ProcessCpu.Reading> after = Map.of(
                1L, new ProcessCpu.Reading(1, ProcessCpu.Kind.CASSANDRA, Duration.ofMillis(1_250)),
                2L, new ProcessCpu.Reading(2, ProcessCpu.Kind.CASSANDRA, Duration.ofMillis(2_500)),
                4L, new ProcessCpu.Reading(4, ProcessCpu.Kind.KAFKA, Duration.ofMillis(9_000)));

        assertThat(ProcessCpu.perKind(before, after)).containsExactlyEntriesOf(Map.of(ProcessCpu.Kind.CASSANDRA, Duration.ofMillis(750)));
    }
}
