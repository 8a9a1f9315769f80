package org.brokerapp.loadtest.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.brokerapp.infra.ProcessCpu;
import org.brokerapp.loadtest.report.ResultTable;
import org.brokerapp.loadtest.run.WindowProbe;
import org.junit.jupiter.api.Test;

class ProcessCpuProbeTests {

    @Test
    void theWindowsCpuIsReportedPerKindAndPerOrderWithTheIdleRateSubtracted() throws Exception {
        ProcessCpuProbe probe = new ProcessCpuProbe(() -> Map.of(ProcessHandle.current().pid(), ProcessCpu.Kind.HARNESS));
        probe.idleStarted();
        Thread.sleep(200);
        probe.idleEnded();
        probe.windowStarted();
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        long sink = 0;
        while (threads.getCurrentThreadCpuTime() - start < 200_000_000L) {
            sink += Long.numberOfTrailingZeros(sink + System.nanoTime());
        }

        List<ResultTable> tables = probe.windowEnded(new WindowProbe.WindowFacts(0.4, 0, 100));

        assertThat(sink).isNotNegative();
        ResultTable table = tables.get(0);
        assertThat(table.rows()).extracting(ResultTable.Row::label).containsExactly("harness", "**all**");
        ResultTable.Row harness = table.rows().get(0);
        assertThat(harness.values().get(0)).isEqualTo("1");
        double cpuSeconds = Double.parseDouble(harness.values().get(1));
        assertThat(cpuSeconds).isGreaterThanOrEqualTo(0.18);
        // CPU ms per order = CPU s x 1000 / 100 orders
        assertThat(Double.parseDouble(harness.values().get(5))).isCloseTo(cpuSeconds * 10, org.assertj.core.data.Offset.offset(0.01));
        assertThat(harness.values().get(6)).isNotEqualTo("-");
    }

    @Test
    void withoutAnIdleBaselineTheSubtractedColumnsStayEmpty() {
        ProcessCpuProbe probe = new ProcessCpuProbe(() -> Map.of(ProcessHandle.current().pid(), ProcessCpu.Kind.HARNESS));
        probe.windowStarted();

        ResultTable table = probe.windowEnded(new WindowProbe.WindowFacts(1, 0, 10)).get(0);

        assertThat(table.rows().get(0).values().get(3)).isEqualTo("-");
        assertThat(table.rows().get(0).values().get(6)).isEqualTo("-");
        assertThat(table.note()).contains("No idle baseline");
    }
}
