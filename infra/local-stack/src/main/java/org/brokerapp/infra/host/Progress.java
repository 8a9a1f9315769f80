package org.brokerapp.infra.host;

import java.io.PrintStream;
import java.time.Duration;

/** One line per step, each stamped with the time since the start, so a slow step shows itself. */
public final class Progress {

    private final PrintStream out;
    private final long startNanos = System.nanoTime();

    public Progress(PrintStream out) {
        this.out = out;
    }

    public void step(String message) {
        out.printf("[%6.1fs] %s%n", elapsed().toMillis() / 1000.0, message);
        out.flush();
    }

    public void warn(String message) {
        out.printf("[%6.1fs] WARNING: %s%n", elapsed().toMillis() / 1000.0, message);
        out.flush();
    }

    public Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }
}
