package org.brokerapp.terraform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A command-line tool the checks run as a process: found in ~/.local/bin (where
 * terraform/bin/install-tools puts the pinned versions) first, then on the PATH.
 */
record Tool(String name, Path binary) {

    static final String INSTALL_HINT = "run terraform/bin/install-tools";

    /** The tool, or an AssertionError whose one-line message says how to install it: a missing tool fails, never skips. */
    static Tool require(String name) {
        return find(name).map(binary -> new Tool(name, binary)).orElseThrow(() -> new AssertionError(
                name + " not found in ~/.local/bin or on the PATH: " + INSTALL_HINT));
    }

    static Optional<Path> find(String name) {
        List<Path> dirs = new ArrayList<>();
        dirs.add(Path.of(System.getProperty("user.home"), ".local", "bin"));
        Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)).filter(s -> !s.isBlank()).map(Path::of).forEach(dirs::add);
        return dirs.stream().map(d -> d.resolve(name)).filter(Files::isExecutable).findFirst();
    }

    /** The result of one run: exit code and the merged stdout and stderr. */
    record Run(String command, int exitCode, String output) {

        /** A failure message: the command, its exit code and its output's last lines. */
        String describe() {
            List<String> lines = output.lines().toList();
            return command + " exited " + exitCode + ":\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        }
    }

    Run run(Path dir, String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("TF_IN_AUTOMATION", "1");
        env.put("CHECKPOINT_DISABLE", "1");
        env.put("NO_COLOR", "1");
        String cliConfig = env.get("TF_CLI_CONFIG_FILE");
        if (cliConfig != null && !Files.exists(Path.of(cliConfig))) {
            env.remove("TF_CLI_CONFIG_FILE"); // a dangling setting only adds a warning to every command
        }
        try {
            Process process = pb.start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError(name + " " + String.join(" ", args) + " did not finish in 10 minutes");
            }
            return new Run(name + " " + String.join(" ", args) + " (in " + dir + ")", process.exitValue(), new String(out));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }
}
