package org.brokerapp.infra.host;

import java.util.List;
import java.util.stream.Stream;

/**
 * JVM options for the processes of the local stack on a small machine, where four Cassandra nodes,
 * two Kafkas, Elasticsearch and the brokers share two cores (issue #11). Each server adds its own
 * heap and collector settings.
 */
public final class LeanJvm {

    /** For every JVM of the stack: threads sized for the machine's two cores, and JIT compiling that yields to requests. */
    public static final List<String> SHARED_CORES = Stream.concat(Stream.of(
            "-XX:ParallelGCThreads=2", "-XX:ConcGCThreads=1", // never more GC threads than the machine's 2 cores, whatever the JVM detects
            "-XX:CICompilerCount=2"), // the fewest JIT threads tiered compilation allows
            compilerThreadsYield().stream()).toList();

    /**
     * The JIT's thresholds at a tenth of their defaults, for the JVMs whose hot paths run tens of
     * times a second here, not thousands: the Kafkas (and the harness, in {@code loadtest/bin/loadtest}),
     * whose starts are small; the brokers take a quarter, for their hot paths only
     * ({@link #COMPILE_HOT_PATHS_AT_TENS_A_SECOND}). At the defaults (5,000 calls before C2) a broker's
     * request code stayed in C1's profiling tier for many minutes after start, and a placement's HTTP
     * path with it. Side by side in the demo, a tenth cut the broker's part of a placement from 6.2 to
     * 3.8-4.6 ms at p50; with the Kafkas at a tenth too a tick's p99 to its fill was a millisecond or
     * two shorter, within one run's spread (docs/benchmarks/log/jit-tenth.md).
     */
    public static final String COMPILE_AT_TENS_A_SECOND = "-XX:CompileThresholdScaling=0.1";

    /**
     * JIT compiling at nice 10. In a JVM's first minutes it takes a third of the stack's CPU, and at
     * equal priority each compile holds a core that requests wait for: at nice 10 the demo's bare
     * write and placements are about 3x and 2x faster. Not 19, which was faster still: a compiler
     * thread starved there holds the JVM's code locks, and Cassandra nodes stalled for seconds at
     * the first burst of load (docs/benchmarks/log/2026-11-24-jit-nice-10.md). Only as root: elsewhere the JVM warns at every
     * start that the policy may need privileges.
     */
    private static List<String> compilerThreadsYield() {
        return Privileges.root()
                ? List.of("-XX:ThreadPriorityPolicy=1", "-XX:CompilerThreadPriority=10")
                : List.of();
    }

    /**
     * The packages of a broker's hot paths: its own code, the HTTP stack a placement crosses, the
     * Kafka and Cassandra clients a tick and a fill cross, and the meters both record into.
     */
    static final List<String> BROKER_HOT_PATHS = List.of("org.brokerapp", "org.apache.coyote", "org.apache.tomcat", "org.apache.catalina",
            "org.springframework.web", "org.springframework.security", "tools.jackson", "org.apache.kafka", "com.datastax.oss", "io.netty",
            "io.micrometer", "org.HdrHistogram", "io.github.resilience4j");

    /**
     * A quarter of the thresholds for a broker's hot paths only ({@link #BROKER_HOT_PATHS}). With the
     * whole JVM at a tenth, Spring Boot's start-up code (reflection, class loading, bean
     * definitions) crossed C2's threshold too: minutes into the demo's load a broker still had
     * hundreds to thousands of such methods queued for a C2 that ran at nice 10 on saturated cores,
     * compiling code that would never run again; with the hot paths alone, 68-175 except on the slowest
     * host (docs/benchmarks/log/jit-hot-paths-only.md). A quarter, not a tenth: at a
     * tenth the libraries' lukewarm methods (Kafka's clients, Jackson) kept 57-61 methods in C2's
     * queue, and while it holds more than five HotSpot compiles each newly warm method at C1's
     * tier 2, without the profile C2 needs, and profiles it only once the queue is down to two
     * ({@code Tier3DelayOn}, {@code Tier3DelayOff}): code first warmed under load waited in C1.
     * Side by side, a quarter kept the queue at 13-23 and cut a placement from 21.6-24.9 to
     * 13.7-15.2 ms at p50 (docs/benchmarks/log/2026-11-29-jit-quarter.md).
     */
    static final List<String> COMPILE_HOT_PATHS_AT_TENS_A_SECOND = Stream.concat(Stream.of("-XX:CompileCommand=quiet"),
            BROKER_HOT_PATHS.stream().map(p -> "-XX:CompileCommand=CompileThresholdScaling," + p + ".*::*,0.25")).toList();

    /** For a broker-service process started beside the local stack (by the load harness and the integration tests). */
    public static final List<String> SMALL_MACHINE = Stream.of(Stream.of(
            "-XX:+UseG1GC", // the JVM's choice on a server-class machine anyway; said here so it holds in a small container too
            "-XX:+PerfDisableSharedMem"), // no hsperfdata mmap writes (jcmd still works; jps no longer lists the process)
            COMPILE_HOT_PATHS_AT_TENS_A_SECOND.stream(), SHARED_CORES.stream()).flatMap(s -> s).toList();

    private LeanJvm() {
    }
}
