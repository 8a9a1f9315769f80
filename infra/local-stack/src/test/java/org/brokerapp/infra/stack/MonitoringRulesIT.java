package org.brokerapp.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The monitoring files in {@code infra/monitoring} as Prometheus's own tool sees them: every rule
 * file loads ({@code promtool check rules}), every alert fires on the series written to fire it
 * and only then ({@code promtool test rules}, tests in {@code rules/tests}), and the scrape
 * configuration the local stack generates is valid ({@code promtool check config}). The files'
 * shape is {@link MonitoringFilesTests}' job; that the dashboards' queries return data is
 * {@code OpsLiveIT}'s (loadtest). An integration test as it needs a tool: {@code ./mvnw verify}
 * runs {@code infra/bin/install-ops-tools} first; without promtool (Debian package
 * {@code prometheus}) these tests fail, saying how to install it.
 */
class MonitoringRulesIT {

    static final Path MONITORING = Path.of("../monitoring").toAbsolutePath().normalize();

    @Test
    void everyRuleFileLoads() throws Exception {
        List<String> command = new ArrayList<>(List.of(promtool(), "check", "rules"));
        command.addAll(files(MONITORING.resolve("rules"), ".yml"));

        Result result = run(command);

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS").doesNotContain("FAILED");
    }

    @Test
    void everyAlertFiresOnItsTestSeriesAndOnlyThen() throws Exception {
        List<String> command = new ArrayList<>(List.of(promtool(), "test", "rules"));
        List<String> tests = files(MONITORING.resolve("rules/tests"), ".test.yml");
        command.addAll(tests);

        Result result = run(command);

        assertThat(tests).hasSizeGreaterThanOrEqualTo(2);
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).doesNotContain("FAILED");
    }

    @Test
    void theGeneratedScrapeConfigurationIsValid(@TempDir Path dir) throws Exception {
        StackLayout layout = StackLayout.of(StackSettings.defaults(dir, 0));
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, PrometheusServer.scrapeConfig(layout, MONITORING.resolve("rules")));

        Result result = run(List.of(promtool(), "check", "config", config.toString()));

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(Files.readString(config)).contains("127.0.1.3:8080", "127.0.2.3:8080", "127.0.1.11:9404", "127.0.2.12:9404", "127.0.1.2:9404",
                "127.0.0.1:8475", "/actuator/prometheus");
    }

    /** promtool, or a failing test naming the package; never a silent pass. */
    static String promtool() {
        Optional<Path> found = Stream.concat(
                        Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).filter(s -> !s.isEmpty()).map(d -> Path.of(d, "promtool")),
                        Stream.of(Path.of("/usr/bin/promtool")))
                .filter(Files::isExecutable).findFirst();
        if (found.isEmpty()) {
            fail("promtool not found: install Debian's prometheus package (infra/bin/install-ops-tools does)");
        }
        return found.get().toString();
    }

    static List<String> files(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(suffix)).map(Path::toString).sorted().toList();
        }
    }

    record Result(int exitCode, String output) {
    }

    static Result run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(String.join(" ", command) + " did not finish within 60 s");
        }
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
