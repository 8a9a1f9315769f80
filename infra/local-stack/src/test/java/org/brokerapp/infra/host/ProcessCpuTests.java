package org.brokerapp.infra.host;

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
                1L, reading(1, ProcessCpu.Kind.CASSANDRA, 1_000, 400),
                2L, reading(2, ProcessCpu.Kind.CASSANDRA, 2_000, 100),
                3L, reading(3, ProcessCpu.Kind.KAFKA, 500, 0));
        Map<Long, ProcessCpu.Reading> after = Map.of(
                1L, reading(1, ProcessCpu.Kind.CASSANDRA, 1_250, 450),
                2L, reading(2, ProcessCpu.Kind.CASSANDRA, 2_500, 300),
                4L, reading(4, ProcessCpu.Kind.KAFKA, 9_000, 10));

        ProcessCpu.Usage cassandra = ProcessCpu.perKind(before, after).get(ProcessCpu.Kind.CASSANDRA);

        assertThat(ProcessCpu.perKind(before, after)).containsOnlyKeys(ProcessCpu.Kind.CASSANDRA);
        assertThat(cassandra).isEqualTo(new ProcessCpu.Usage(Duration.ofMillis(750), Duration.ofMillis(250), ProcessCpu.Waits.NONE));
        assertThat(cassandra.withoutJit()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void aJvmsJitCompilingIsReadFromItsCompilerThreadsAndIsPartOfItsCpu() {
        long self = ProcessHandle.current().pid();

        Duration jit = ProcessCpu.jitTime(self);
        Duration cpu = ProcessCpu.cpuTime(self).orElseThrow();

        // this JVM has run a test framework: its compiler threads have compiled something (the kernel counts in 10 ms ticks)
        assertThat(jit).isPositive().isLessThanOrEqualTo(cpu);
        assertThat(ProcessCpu.jitTime(Long.MAX_VALUE)).isZero();
    }

    @Test
    void aSchedstatLineGivesTheRunQueueWaitAndTheTimesOnACore() {
        ProcessCpu.Waits waits = ProcessCpu.waitsOf("7392014 1500000 3\n");

        assertThat(waits).isEqualTo(new ProcessCpu.Waits(Duration.ofNanos(1_500_000), 3));
        assertThat(waits.perDispatch()).isEqualTo(Duration.ofNanos(500_000));
        assertThat(ProcessCpu.Waits.NONE.perDispatch()).isZero();
    }

    @Test
    void waitsSinceAnEarlierReadingCountANewThreadWholeAndAGoneOneNotAtAll() {
        ProcessCpu.ThreadWaits before = new ProcessCpu.ThreadWaits(Map.of(
                10L, waits(4, 40),
                11L, waits(100, 1_000)));
        ProcessCpu.ThreadWaits after = new ProcessCpu.ThreadWaits(Map.of(
                10L, waits(7, 45),
                12L, waits(2, 20)));

        // thread 10: 3 ms over 5 dispatches; 12 (new): 2 ms over 20; 11 (gone): nothing, never a negative sum
        assertThat(after.since(before)).isEqualTo(waits(5, 25));
    }

    @Test
    void thisProcessesThreadsHaveBeenPutOnACore() {
        ProcessCpu.ThreadWaits now = ProcessCpu.waits(ProcessHandle.current().pid());

        // a running JVM has been put on a core many times (a kernel without schedstat would read none at all)
        assertThat(now.since(ProcessCpu.ThreadWaits.NONE).dispatches()).isPositive();
        assertThat(ProcessCpu.waits(Long.MAX_VALUE).byThread()).isEmpty();
    }

    private static ProcessCpu.Waits waits(long waitedMillis, long dispatches) {
        return new ProcessCpu.Waits(Duration.ofMillis(waitedMillis), dispatches);
    }

    private static ProcessCpu.Reading reading(long pid, ProcessCpu.Kind kind, long cpuMillis, long jitMillis) {
        return new ProcessCpu.Reading(pid, kind, Duration.ofMillis(cpuMillis), Duration.ofMillis(jitMillis), ProcessCpu.ThreadWaits.NONE);
    }
}
