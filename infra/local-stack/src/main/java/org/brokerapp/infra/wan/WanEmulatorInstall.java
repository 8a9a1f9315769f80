package org.brokerapp.infra.wan;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.host.StackException;

/**
 * Provides the WAN emulator's binary on first use, so that the README's two commands (the demo and
 * {@code ./mvnw verify}) need nothing installed by hand: when {@code toxiproxy-server} is not found,
 * {@code infra/bin/install-prerequisites} builds it from the Go module proxy (the one place that pins
 * its version). Without Go the stack does not start: a stack asked for WAN emulation never runs
 * without it.
 */
public final class WanEmulatorInstall {

    private WanEmulatorInstall() {
    }

    /** The binary, built first when it is missing; or a one-line {@link StackException} that says why it cannot be. */
    public static Path findOrBuild(Progress progress) {
        return ToxiproxyWan.findBinary().orElseGet(() -> build(installScript(), progress));
    }

    private static Path build(Path script, Progress progress) {
        if (!Files.isExecutable(script)) {
            throw new StackException("toxiproxy-server (the WAN emulator) is missing and its install script " + script
                    + " is not there; install it and set " + ToxiproxyWan.BINARY_ENV + ", or run without WAN emulation (--no-wan)");
        }
        progress.step("the WAN emulator (toxiproxy-server) is missing: building it with " + script + " (once)");
        String last = "";
        int exit;
        try {
            Process process = new ProcessBuilder(List.of(script.toString())).redirectErrorStream(true).start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (!line.isBlank()) {
                        progress.step("  " + line);
                        last = line;
                    }
                }
            }
            exit = process.waitFor();
        } catch (IOException e) {
            throw new StackException("cannot run " + script + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("interrupted while building the WAN emulator");
        }
        if (exit != 0) {
            throw new StackException((last.isBlank() ? "no WAN emulator: " + script + " exited with " + exit : last)
                    + " (or run without WAN emulation: --no-wan, -Dstack.wan=false)");
        }
        return ToxiproxyWan.findBinary().orElseThrow(() -> new StackException(
                script + " succeeded but toxiproxy-server is still not found (looked in $" + ToxiproxyWan.BINARY_ENV + ", PATH, ~/.local/bin, ~/go/bin)"));
    }

    private static Path installScript() {
        Properties p = new Properties();
        try (InputStream in = WanEmulatorInstall.class.getResourceAsStream("/local-stack.properties")) {
            if (in == null) {
                throw new StackException("local-stack.properties is missing: build with ./mvnw -pl infra/local-stack -am install");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Path.of(p.getProperty("install.script")).normalize();
    }
}
