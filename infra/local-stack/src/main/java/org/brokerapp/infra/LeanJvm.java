package org.brokerapp.infra;

import java.util.List;

/**
 * JVM options for a broker-service process started beside the local stack (by the load harness and
 * the integration tests): lean on a small machine, where four Cassandra nodes, two Kafkas and the
 * brokers share two cores (issue #11). The heap is the caller's choice.
 */
public final class LeanJvm {

    public static final List<String> SMALL_MACHINE = List.of(
            "-XX:+UseG1GC", // the JVM's choice on a server-class machine anyway; said here so it holds in a small container too
            "-XX:ParallelGCThreads=2", "-XX:ConcGCThreads=1", // never more GC threads than the machine's 2 cores, whatever the JVM detects
            "-XX:CICompilerCount=2", // the fewest JIT threads tiered compilation allows
            "-XX:+PerfDisableSharedMem"); // no hsperfdata mmap writes (jcmd still works; jps no longer lists the process)

    private LeanJvm() {
    }
}
