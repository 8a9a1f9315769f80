package org.brokerapp.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shape of the monitoring files in {@code infra/monitoring}, no tool needed: every alert has a
 * unit test in {@code rules/tests}, and every dashboard is templated by region with a query in
 * every panel. That promtool accepts them is {@link MonitoringRulesIT}'s job.
 */
class MonitoringFilesTests {

    static final Path MONITORING = MonitoringRulesIT.MONITORING;

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

    private static List<String> files(Path dir, String suffix) throws IOException {
        return MonitoringRulesIT.files(dir, suffix);
    }
}
