package org.brokerapp.ticker;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the command line in this JVM, as {@code bin/ticker-feed} would, and keeps what it printed. */
final class FeedRunner {

    private FeedRunner() {
    }

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = TickerFeedCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), () -> false);
        Result result = new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        // in the test log, for whoever reads a failure
        System.out.print(result.out());
        System.out.print(result.err());
        return result;
    }

    record Result(int status, String out, String err) {
    }
}
