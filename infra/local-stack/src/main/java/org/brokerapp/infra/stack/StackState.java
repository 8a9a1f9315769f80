package org.brokerapp.infra.stack;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * What a running stack leaves in its work directory for other processes: who launched it and
 * the PIDs of its servers, so {@code stack down} can stop a stack whose launcher is gone.
 *
 * @param launcherPid the process that started the stack and stops it on exit
 * @param serverPids  every server process
 * @param settingsArgs the command-line options the stack was started with, to rebuild its layout
 */
public record StackState(long launcherPid, List<Long> serverPids, String settingsArgs) {

    static final String FILE = "stack.properties";

    void write(Path workDir) {
        Properties p = new Properties();
        p.setProperty("launcher.pid", Long.toString(launcherPid));
        p.setProperty("server.pids", String.join(",", serverPids.stream().map(String::valueOf).toList()));
        p.setProperty("settings", settingsArgs);
        try (Writer out = Files.newBufferedWriter(workDir.resolve(FILE))) {
            p.store(out, "written by the local stack while it runs; deleted when it stops");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Optional<StackState> read(Path workDir) {
        Path file = workDir.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String pids = p.getProperty("server.pids", "");
        return Optional.of(new StackState(Long.parseLong(p.getProperty("launcher.pid", "-1")),
                pids.isBlank() ? List.of() : Arrays.stream(pids.split(",")).map(Long::valueOf).toList(),
                p.getProperty("settings", "")));
    }

    public static void delete(Path workDir) {
        try {
            Files.deleteIfExists(workDir.resolve(FILE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
