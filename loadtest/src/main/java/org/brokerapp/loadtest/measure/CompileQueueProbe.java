package org.brokerapp.loadtest.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.brokerapp.infra.host.ProcessCpu.Kind;
import org.brokerapp.loadtest.probe.ResultTable;
import org.brokerapp.loadtest.probe.WindowProbe;

/**
 * What the brokers and the harness still had waiting for the JIT as the window ended, from
 * {@code jcmd PID Compiler.queue}. On a saturated machine the compiler threads (at nice 10 in the
 * local stack) fall behind, and a C2 queue in the hundreds means the window ran code not yet
 * compiled, whatever its latencies say about the design (docs/benchmarks/log/jit-hot-paths-only.md). Read once the window is over, so that jcmd's own JVMs are not in it.
 */
public final class CompileQueueProbe implements WindowProbe {

    private static final Duration JCMD_TIMEOUT = Duration.ofSeconds(30);

    /** The methods being compiled and those queued for each compiler, from one {@code Compiler.queue} answer. */
    record Queues(int compiling, int c1, int c2) {
    }

    private final Supplier<Map<Long, Kind>> processes;
    private final Path jcmd;

    /** @param processes every process of the run, pid to kind; the brokers and the harness are read */
    public CompileQueueProbe(Supplier<Map<Long, Kind>> processes) {
        this(processes, Path.of(System.getProperty("java.home"), "bin", "jcmd"));
    }

    CompileQueueProbe(Supplier<Map<Long, Kind>> processes, Path jcmd) {
        this.processes = processes;
        this.jcmd = jcmd;
    }

    @Override
    public void windowStarted() {
    }

    @Override
    public List<ResultTable> windowEnded(WindowFacts facts) {
        if (!Files.isExecutable(jcmd)) {
            return List.of();
        }
        // every jcmd at once, each answering into a file of its own: a queue of thousands is more than a pipe holds
        Map<String, Asked> asked = new LinkedHashMap<>();
        processes.get().forEach((pid, kind) -> {
            if (kind == Kind.BROKER || kind == Kind.HARNESS) {
                asked.put(kind.label() + " " + pid, ask(pid));
            }
        });
        long deadline = System.nanoTime() + JCMD_TIMEOUT.toNanos();
        List<ResultTable.Row> rows = new ArrayList<>();
        asked.forEach((process, question) -> rows.add(new ResultTable.Row(process, question.answer(deadline)
                .map(q -> List.of(Integer.toString(q.c2()), Integer.toString(q.c1()), Integer.toString(q.compiling())))
                .orElse(List.of("-", "-", "-")))));
        return List.of(new ResultTable("Methods waiting for the JIT as the window ended (jcmd PID Compiler.queue)", "process",
                List.of("C2 queue", "C1 queue", "being compiled"), rows,
                "Read right after the window. Hundreds in a C2 queue mean the compiler threads fell behind and the window ran code not yet "
                        + "compiled; \"-\": jcmd had no answer."));
    }

    private Asked ask(long pid) {
        Path file = null;
        try {
            file = Files.createTempFile("compiler-queue-" + pid, ".txt");
            Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Compiler.queue").redirectErrorStream(true)
                    .redirectOutput(file.toFile()).start();
            return new Asked(process, file);
        } catch (IOException e) {
            Asked.delete(file);
            return new Asked(null, null);
        }
    }

    /** One jcmd under way (null parts: it did not start). */
    private record Asked(Process process, Path file) {

        Optional<Queues> answer(long deadline) {
            if (process == null) {
                return Optional.empty();
            }
            try {
                if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    process.destroyForcibly();
                    return Optional.empty();
                }
                return process.exitValue() == 0 ? parse(Files.readString(file)) : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            } finally {
                delete(file);
            }
        }

        static void delete(Path file) {
            try {
                if (file != null) {
                    Files.deleteIfExists(file);
                }
            } catch (IOException ignored) {
                // a temporary file left behind
            }
        }
    }

    /** The counts in a {@code Compiler.queue} answer; empty when it is not one. */
    static Optional<Queues> parse(String answer) {
        Map<String, Integer> sections = new LinkedHashMap<>();
        String section = null;
        for (String line : answer.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.equals("Current compiles:") || trimmed.equals("C1 compile queue:") || trimmed.equals("C2 compile queue:")) {
                section = trimmed;
                sections.put(section, 0);
            } else if (trimmed.isEmpty()) {
                section = null;
            } else if (section != null && !trimmed.equals("Empty")) {
                sections.merge(section, 1, Integer::sum);
            }
        }
        if (!sections.containsKey("C1 compile queue:") || !sections.containsKey("C2 compile queue:")) {
            return Optional.empty();
        }
        return Optional.of(new Queues(sections.getOrDefault("Current compiles:", 0), sections.get("C1 compile queue:"),
                sections.get("C2 compile queue:")));
    }
}
