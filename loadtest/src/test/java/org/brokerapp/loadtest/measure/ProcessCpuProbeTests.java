package org.brokerapp.loadtest.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.brokerapp.infra.host.ProcessCpu;
import org.brokerapp.loadtest.probe.ResultTable;
import org.brokerapp.loadtest.probe.WindowProbe;
import org.junit.jupiter.api.Test;

class ProcessCpuProbeTests {

    @Test
    void theWindowsCpuIsReportedPerKindAndPerOrderWithTheIdleRateSubtracted() throws Exception {
        ProcessCpuProbe probe = new ProcessCpuProbe(() -> Map.of(ProcessHandle.current().pid(), ProcessCpu.Kind.HARNESS));
        probe.idleStarted();
        Thread.sleep(200);
        probe.idleEnded();
        probe.windowStarted();
        long windowStart = System.nanoTime();
        long sink = busyFor200MsOfCpu();

        List<ResultTable> tables = probe.windowEnded(new WindowProbe.WindowFacts((System.nanoTime() - windowStart) / 1e9, 0, 100));

        assertThat(sink).isNotNegative();
        ResultTable table = tables.get(0);
        assertThat(table.rows()).extracting(ResultTable.Row::label).containsExactly("harness", "**all**");
        ResultTable.Row harness = table.rows().get(0);
        assertThat(harness.values().get(0)).isEqualTo("1");
        double cpuSeconds = Double.parseDouble(harness.values().get(1));
        assertThat(cpuSeconds).isGreaterThanOrEqualTo(0.18);
        // CPU ms per order = CPU s x 1000 / 100 orders, within the CPU s column's rounding to 0.01 s
        assertThat(Double.parseDouble(harness.values().get(6))).isCloseTo(cpuSeconds * 10, org.assertj.core.data.Offset.offset(0.051));
        double aboveIdleWithoutJit = Double.parseDouble(harness.values().get(8));
        // the spinning thread is not a compiler thread: taking the JIT out leaves at least its 200 ms (2 ms per order), less the idle rate
        assertThat(aboveIdleWithoutJit).isGreaterThan(1.0);
        assertThat(Double.parseDouble(harness.values().get(3))).isNotNegative();
        assertThat(harness.values().get(7)).isNotEqualTo("-");
        // this JVM's threads were put on a core in the window: a mean wait per dispatch, never negative
        assertThat(Double.parseDouble(harness.values().get(9))).isNotNegative();
        assertThat(Double.parseDouble(harness.values().get(10))).isNotNegative();
        assertThat(table.columns()).endsWith("threads waiting for a core, on average", "wait for a core per dispatch, µs");
    }

    @Test
    void theCpuSinceLastAskedIsWhatTheProcessesBurnedInBetween() {
        ProcessCpuProbe probe = new ProcessCpuProbe(() -> Map.of(ProcessHandle.current().pid(), ProcessCpu.Kind.HARNESS));
        assertThat(probe.cpuSinceLastAsked()).contains(java.time.Duration.ZERO);
        long sink = busyFor200MsOfCpu();

        java.time.Duration burned = probe.cpuSinceLastAsked().orElseThrow();

        assertThat(sink).isNotNegative();
        // the clock tick is 10 ms: at least the spin's 200 ms, less one tick at each end
        assertThat(burned).isGreaterThanOrEqualTo(java.time.Duration.ofMillis(180));
        assertThat(probe.cpuSinceLastAsked().orElseThrow()).isLessThan(burned);
    }

    @Test
    void readingsTakenLateGiveTheRateOverTheirOwnIntervalNotOverTheWindows() throws Exception {
        ProcessCpuProbe probe = new ProcessCpuProbe(() -> Map.of(ProcessHandle.current().pid(), ProcessCpu.Kind.HARNESS));
        probe.windowStarted();
        long sink = busyFor200MsOfCpu();
        Thread.sleep(400);

        // a 0.1-s window whose end was read at least 0.6 s after its start: one busy thread for 0.2 s of it
        ResultTable.Row harness = probe.windowEnded(new WindowProbe.WindowFacts(0.1, 0, 10)).get(0).rows().get(0);

        assertThat(sink).isNotNegative();
        double percentOfOneCore = Double.parseDouble(harness.values().get(2));
        // over the window's 0.1 s the busy thread alone would be 200 % or more; over the readings' 0.6 s or more, well under it
        assertThat(percentOfOneCore).isGreaterThan(1).isLessThan(150);
        assertThat(Double.parseDouble(harness.values().get(1))).isCloseTo(percentOfOneCore / 100 * 0.1, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void withoutAnIdleBaselineTheSubtractedColumnsStayEmpty() {
        ProcessCpuProbe probe = new ProcessCpuProbe(() -> Map.of(ProcessHandle.current().pid(), ProcessCpu.Kind.HARNESS));
        probe.windowStarted();

        ResultTable table = probe.windowEnded(new WindowProbe.WindowFacts(1, 0, 10)).get(0);

        assertThat(table.rows().get(0).values().get(4)).isEqualTo("-");
        assertThat(table.rows().get(0).values().get(7)).isEqualTo("-");
        assertThat(table.rows().get(0).values().get(8)).isEqualTo("-");
        assertThat(table.note()).contains("No idle baseline");
    }

    /** Keeps this thread on the CPU for 200 ms of its own CPU time; the result only keeps the loop from being optimised away. */
    private static long busyFor200MsOfCpu() {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        long sink = 0;
        while (threads.getCurrentThreadCpuTime() - start < 200_000_000L) {
            sink += Long.numberOfTrailingZeros(sink + System.nanoTime());
        }
        return sink;
    }
}
