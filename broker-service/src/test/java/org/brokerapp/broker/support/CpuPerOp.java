package org.brokerapp.broker.support;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.Callable;

/**
 * CPU time per operation (this thread's, from ThreadMXBean), for the benchmarks' own main
 * methods: on a machine too busy for JMH's wall-clock times to mean much, a thread waiting for a
 * core spends no CPU time.
 */
public final class CpuPerOp {

    private CpuPerOp() {
    }

    /** Runs {@code op} {@code count} times to warm up, then {@code count} times measured: microseconds of CPU per run. */
    public static double micros(Callable<?> op, int count) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try {
            for (int i = 0; i < count; i++) {
                op.call();
            }
            long start = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < count; i++) {
                op.call();
            }
            return (threads.getCurrentThreadCpuTime() - start) / 1e3 / count;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
