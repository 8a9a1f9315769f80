package org.brokerapp.infra.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One server of the stack running as a child process: its console goes to a file, readiness is
 * a line in its log, and stopping it is SIGTERM first, SIGKILL only after a grace period.
 */
public final class ServerProcess {

    private final String name;
    private final Process process;
    private final Path console;
    private final Optional<ClassDataArchive> recording;

    private ServerProcess(String name, Process process, Path console, Optional<ClassDataArchive> recording) {
        this.name = name;
        this.process = process;
        this.console = console;
        this.recording = recording;
    }

    public static ServerProcess start(String name, List<String> command, Path console) {
        return start(name, command, console, Optional.empty());
    }

    /** With {@code recording}: this JVM records that class data archive as it exits, kept if it stops by itself. */
    public static ServerProcess start(String name, List<String> command, Path console, Optional<ClassDataArchive> recording) {
        try {
            Files.createDirectories(console.getParent());
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(console.toFile())
                    .start();
            return new ServerProcess(name, process, console, recording);
        } catch (IOException e) {
            throw new StackException("cannot start " + name + ": " + e.getMessage(), e);
        }
    }

    /** Runs a short-lived command (a tool, not a server) to its end; fails with the tail of its output. */
    public static void runToCompletion(String name, List<String> command, Path console, Duration timeout) {
        runToCompletion(name, command, console, timeout, Optional.empty());
    }

    /** With {@code recording}: the tool records that class data archive as it exits, kept if it succeeds. */
    public static void runToCompletion(String name, List<String> command, Path console, Duration timeout, Optional<ClassDataArchive> recording) {
        ServerProcess tool = start(name, command, console, recording);
        try {
            if (!tool.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                tool.process.destroyForcibly();
                throw new StackException(name + " did not finish within " + timeout.toSeconds() + " s; see " + console);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            tool.process.destroyForcibly();
            throw new StackException(name + " interrupted");
        }
        recording.ifPresent(archive -> archive.keepRecorded(tool.process.exitValue() == 0));
        if (tool.process.exitValue() != 0) {
            throw new StackException(name + " failed (exit " + tool.process.exitValue() + "): " + tool.lastLine() + "; see " + console);
        }
    }

    /** Waits until {@code log} holds a line containing {@code marker}; fails early if the process dies. */
    public void awaitLogLine(Path log, String marker, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new StackException(name + " exited (code " + process.exitValue() + ") before it was ready: "
                        + lastLine() + "; see " + console);
            }
            if (contains(log, marker)) {
                return;
            }
            sleep(Duration.ofMillis(200));
        }
        throw new StackException(name + " not ready after " + timeout.toSeconds() + " s (no '" + marker + "' in " + log + ")");
    }

    /** Waits until {@code probe} says yes (it is asked every 500 ms); fails early if the process dies. */
    public void awaitReady(java.util.function.BooleanSupplier probe, String what, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new StackException(name + " exited (code " + process.exitValue() + ") before it was ready: "
                        + lastLine() + "; see " + console);
            }
            if (probe.getAsBoolean()) {
                return;
            }
            sleep(Duration.ofMillis(500));
        }
        throw new StackException(name + " not ready after " + timeout.toSeconds() + " s (no " + what + "); see " + console);
    }

    /** Kills the process as a crash would (SIGKILL, no shutdown hooks) and waits until it is gone. */
    public void kill() {
        try {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        recording.ifPresent(archive -> archive.keepRecorded(false));
    }

    /** Holds the process where it is (SIGSTOP), as a long GC pause or a stalled disk would; {@link #resume} lets it go on. */
    public void pause() {
        signal("STOP");
    }

    /** Lets a {@link #pause paused} process go on (SIGCONT). */
    public void resume() {
        signal("CONT");
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new StackException("could not send SIG" + signal + " to " + name + " (pid " + process.pid() + ")");
            }
        } catch (java.io.IOException e) {
            throw new StackException("could not send SIG" + signal + " to " + name + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("interrupted sending SIG" + signal + " to " + name);
        }
    }

    public void stop(Duration grace) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        boolean stoppedByItself = false;
        // a JVM recording its class data archive writes it on its way out
        Duration wait = recording.isPresent() ? grace.plusSeconds(60) : grace;
        try {
            stoppedByItself = process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS);
            if (!stoppedByItself) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        // a JVM ends with 143 when SIGTERM's shutdown completes
        boolean exitedCleanly = stoppedByItself && (process.exitValue() == 0 || process.exitValue() == 143);
        recording.ifPresent(archive -> archive.keepRecorded(exitedCleanly));
    }

    public String name() {
        return name;
    }

    /** The class data archive this JVM records as it exits, if it does. */
    public Optional<ClassDataArchive> recording() {
        return recording;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path console() {
        return console;
    }

    /** Resident set size from /proc, or empty where there is no /proc. */
    public Optional<Long> rssBytes() {
        return rssBytes(process.pid());
    }

    static Optional<Long> rssBytes(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                    .filter(l -> l.startsWith("VmRSS:"))
                    .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024)
                    .findFirst();
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
    }

    private String lastLine() {
        try {
            List<String> lines = Files.readAllLines(console, StandardCharsets.UTF_8);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank()) {
                    return lines.get(i).strip();
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // fall through: the caller names the file anyway
        }
        return "(no output)";
    }

    private static boolean contains(Path log, String marker) {
        if (!Files.exists(log)) {
            return false;
        }
        try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return lines.anyMatch(l -> l.contains(marker));
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }

    public static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("interrupted");
        }
    }
}
