package org.brokerapp.infra;

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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The monitoring files in {@code infra/monitoring} as Prometheus's own tool sees them: every rule
 * file loads ({@code promtool check rules}), every alert fires on the series written to fire it
 * and only then ({@code promtool test rules}, tests in {@code rules/tests}), and the scrape
 * configuration the local stack generates is valid ({@code promtool check config}). The dashboards
 * are checked here for shape; that their queries return data is {@code OpsLiveTests}' job (loadtest).
 * Without promtool (Debian package {@code prometheus}) these tests fail, saying how to install it.
 */
class MonitoringRulesTests {

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
    void everyAlertRuleHasAUnitTest() throws IOException {
        List<String> alerts = new ArrayList<>();
        for (String file : files(MONITORING.resolve("rules"), ".yml")) {
            for (String line : Files.readAllLines(Path.of(file))) {
                if (line.strip().startsWith("- alert: ")) {
                    alerts.add(line.strip().substring("- alert: ".length()));
                }
            }
        }
        StringBuilder tests = new StringBuilder();
        for (String file : files(MONITORING.resolve("rules/tests"), ".test.yml")) {
            tests.append(Files.readString(Path.of(file)));
        }
        assertThat(alerts).hasSizeGreaterThanOrEqualTo(15);
        assertThat(alerts).allSatisfy(alert -> assertThat(tests.toString()).as("a test of " + alert).contains("alertname: " + alert));
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

    @Test
    void everyDashboardIsTemplatedByRegionAndEveryPanelHasAQuery() throws IOException {
        List<String> dashboards = files(MONITORING.resolve("grafana/dashboards"), ".json");
        assertThat(dashboards).extracting(f -> Path.of(f).getFileName().toString())
                .contains("overview.json", "order-flow.json", "matching.json", "cross-region.json", "cassandra.json", "kafka.json");
        JsonMapper json = JsonMapper.builder().build();
        for (String file : dashboards) {
            JsonNode dashboard = json.readTree(Files.readString(Path.of(file)));
            assertThat(dashboard.path("uid").asString()).as(file).startsWith("brokerapp-");
            assertThat(dashboard.path("templating").path("list").findValuesAsString("name")).as(file).contains("region", "datasource");
            assertThat(dashboard.path("panels").size()).as(file).isPositive();
            for (JsonNode panel : dashboard.path("panels")) {
                assertThat(panel.path("targets").size()).as(file + ": " + panel.path("title").asString()).isPositive();
                for (JsonNode target : panel.path("targets")) {
                    assertThat(target.path("expr").asString()).as(file + ": " + panel.path("title").asString()).contains("$region");
                }
            }
        }
    }

    /** promtool, or a failing test naming the package; never a silent pass. */
    static String promtool() {
        Optional<Path> found = Stream.concat(
                        Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).filter(s -> !s.isEmpty()).map(d -> Path.of(d, "promtool")),
                        Stream.of(Path.of("/usr/bin/promtool")))
                .filter(Files::isExecutable).findFirst();
        if (found.isEmpty()) {
            fail("promtool not found: install Debian's prometheus package (infra/bin/install-prerequisites does)");
        }
        return found.get().toString();
    }

    private static List<String> files(Path dir, String suffix) throws IOException {
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
