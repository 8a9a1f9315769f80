package org.brokerapp.loadtest.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** Where a run's files go: {@code summary.md}, {@code results.json} and {@code report.html} in one directory. */
public final class ResultsDirectory {

    public static final Path DEFAULT_PARENT = Path.of("loadtest", "target", "results");

    private ResultsDirectory() {
    }

    /** {@code parent/<yyyyMMdd-HHmmss>} */
    public static Path timestamped(Path parent) {
        return parent.resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }

    public static void write(Path directory, RunResult result) throws IOException {
        Files.createDirectories(directory);
        Files.writeString(directory.resolve("summary.md"), MarkdownReport.render(result));
        Files.writeString(directory.resolve("results.json"), JsonReport.render(result));
        Files.writeString(directory.resolve("report.html"), HtmlReport.render(result));
    }
}
