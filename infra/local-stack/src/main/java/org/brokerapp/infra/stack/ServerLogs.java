package org.brokerapp.infra.stack;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a server's own files say after an outage: its log past a point, its JVM's crash report. */
final class ServerLogs {

    private ServerLogs() {
    }

    private static final Pattern CRASH_SIGNAL = Pattern.compile("^#\\s+(SIG[A-Z]+) \\(0x[0-9a-f]+\\)", Pattern.MULTILINE);

    private static final Pattern CRASH_THREAD = Pattern.compile("^Current thread \\([^)]*\\):\\s+JavaThread \"([^\"]+)\"", Pattern.MULTILINE);

    /** "the JVM crashed: SIGBUS in thread MutationStage-1 (hs_err_pid3012.log)", from a JVM crash report. */
    static Optional<String> crashSummary(Path report) {
        try {
            return Optional.of(crashSummary(Files.readString(report), report.getFileName().toString()));
        } catch (IOException e) {
            return Optional.of("the JVM crashed (" + report.getFileName() + ", unreadable: " + e.getMessage() + ")");
        }
    }

    static String crashSummary(String report, String name) {
        Matcher signal = CRASH_SIGNAL.matcher(report);
        Matcher thread = CRASH_THREAD.matcher(report);
        return "the JVM crashed" + (signal.find() ? ": " + signal.group(1) : "") + (thread.find() ? " in thread " + thread.group(1) : "")
                + " (" + name + ")";
    }

    /**
     * What a Cassandra log says about a disk failure past its first {@code offset} bytes: the line of its disk (or
     * commit) failure policy, else its first error, shortened to the message, with the cause when the disk was full.
     */
    static Optional<String> diskErrorAfter(Path log, long offset) {
        Optional<String> written = logAfter(log, offset);
        if (written.isEmpty()) {
            return Optional.empty();
        }
        String tail = written.get();
        List<String> errors = tail.lines().filter(l -> l.startsWith("ERROR")).map(l -> l.contains(" - ") ? l.substring(l.indexOf(" - ") + 3) : l).toList();
        Optional<String> said = errors.stream().filter(l -> l.contains("failure_policy")).findFirst().or(() -> errors.stream().findFirst())
                .map(l -> l.length() > 120 ? l.substring(0, 120) + "..." : l);
        String cause = tail.contains("No space left on device") ? " (No space left on device)" : "";
        return said.map(l -> l + cause);
    }

    static long sizeOf(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Whether {@code marker} is in {@code file} past its first {@code offset} bytes (what was written after a restart). */
    static boolean logContainsAfter(Path file, long offset, String marker) {
        return logAfter(file, offset).filter(tail -> tail.contains(marker)).isPresent();
    }

    /** What {@code file} got past its first {@code offset} bytes (at most 64 MB of it); empty when nothing or unreadable. */
    private static Optional<String> logAfter(Path file, long offset) {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            if (in.length() <= offset) {
                return Optional.empty();
            }
            in.seek(offset);
            byte[] tail = new byte[(int) Math.min(in.length() - offset, 64L << 20)];
            in.readFully(tail);
            return Optional.of(new String(tail, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
