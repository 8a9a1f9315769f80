package org.brokerapp.loadtest.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.loadtest.LoadRun;
import org.brokerapp.loadtest.deployment.LocalTarget;
import org.brokerapp.loadtest.report.RunResult;
import org.brokerapp.loadtest.workload.Preset;
import org.brokerapp.loadtest.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Monitoring against the real thing: the test JVM's stack runs with Prometheus (this module sets
 * {@code stack.metrics}), a broker per region is started, and the harness puts a short load on
 * them (a fifth MARKET orders, some routed across the emulated WAN). Meanwhile:
 * <ul>
 *   <li><b>no dead panel</b>: every query of every Grafana dashboard in {@code infra/monitoring/grafana},
 *       with its template variables substituted as Grafana would (region = all regions), is run
 *       against the real Prometheus and must return at least one series; so must every template
 *       variable's own query;</li>
 *   <li><b>the live ops page</b> ({@code /ops} of a broker) in headless Chromium: it loads, its charts
 *       receive data during the load, and after {@code stack.cut(region)} the region shows as cut.
 *       Screenshots: {@code target/ops-page.png} (under load; the README's copy is
 *       {@code docs/ops-page.png}) and {@code target/ops-page-cut.png}.</li>
 * </ul>
 * Needs Debian's prometheus, chromium and chromium-driver; without them it fails saying so.
 */
@LocalStackTest
class OpsLiveIT {

    static final Path DASHBOARDS = Path.of("../infra/monitoring/grafana/dashboards");
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void everyDashboardPanelReturnsSeriesAndTheOpsPageShowsLoadAndACut(LocalStack stack, @TempDir Path chromiumProfile) throws Exception {
        String prometheus = stack.prometheusUrl().orElseThrow(() -> new AssertionError(
                "the stack runs without Prometheus: install Debian's prometheus package (infra/bin/install-ops-tools)"));
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            fail("headless Chromium not found (" + CHROMIUM + ", " + CHROMEDRIVER + "): install Debian's chromium and chromium-driver (infra/bin/install-ops-tools)");
        }
        Progress progress = new Progress(System.out);
        WorkloadSpec smoke = Preset.SMOKE.spec(stack.regions().names());
        WorkloadSpec spec = new WorkloadSpec(smoke.ordersPerSecond(), smoke.ticksPerSecond(), smoke.mix().withMarket(0.2), smoke.buyShare(),
                smoke.marketableShare(), smoke.crossRegionShare(), smoke.symbolsPerRegion(), smoke.customers(), Duration.ofSeconds(2),
                Duration.ofSeconds(5), Duration.ofSeconds(45), Duration.ofSeconds(3), smoke.floorWritesPerSecond(), smoke.primeShares(), smoke.seed());
        LoadRun.Settings defaults = LoadRun.Settings.defaults("ops live test");
        LoadRun.Settings settings = new LoadRun.Settings(defaults.title(), defaults.preset(), defaults.command(), defaults.progressEvery(),
                defaults.openingCash(), defaults.floor(), false, defaults.sla(), defaults.probes(), defaults.idleBaseline(), defaults.latencyLogs());
        Path jar = Path.of("../broker-service/target/broker-service-0.1.0-SNAPSHOT.jar");
        ExecutorService background = Executors.newSingleThreadExecutor();
        try (LocalTarget target = LocalTarget.attach(stack, Path.of("target/ops-logs"), jar, spec.customers(), List.of(), progress)) {
            Future<RunResult> load = background.submit(() -> LoadRun.execute(target, spec, settings, progress));

            // fills and routed MARKET orders reach Prometheus: the load is on
            awaitSeries(prometheus, "sum(rate(broker_fills_total{outcome=\"filled\"}[30s])) > 0", Duration.ofMinutes(4), load);
            awaitSeries(prometheus, "sum(broker_market_orders_seconds_count{route=\"cross-region\"}) > 0", Duration.ofMinutes(2), load);

            List<String> dead = deadPanels(prometheus, stack.regions().names(), Duration.ofSeconds(60));
            assertThat(dead).as("dashboard queries that returned no series").isEmpty();

            String opsPage = target.brokerUrls().values().iterator().next() + "/ops/";
            ChromeDriver browser = chromium(chromiumProfile);
            try {
                browser.get(opsPage);
                Map<?, ?> state = awaitPage(browser, "s.updates >= 2 && s.points['throughput'] > 0 && s.points['tick-to-fill'] > 0 && s.points['market'] > 0",
                        Duration.ofSeconds(60));
                assertThat(state.get("errors")).as("Prometheus queries that failed on the page").isEqualTo(0L);
                Thread.sleep(6_000); // one more refresh, so the cards show the latest figures
                screenshot(browser, Path.of("target/ops-page.png"));

                load.get(5, TimeUnit.MINUTES);
                String cut = stack.regions().names().get(1);
                stack.cut(cut);
                try {
                    awaitPage(browser, "s.regions['" + cut + "'] && s.regions['" + cut + "'].wan === 'cut'", Duration.ofSeconds(45));
                    assertThat(browser.findElement(org.openqa.selenium.By.id("region-" + cut)).getAttribute("data-wan")).isEqualTo("cut");
                    assertThat(browser.findElement(org.openqa.selenium.By.id("region-" + cut)).getText()).contains("WAN CUT");
                    screenshot(browser, Path.of("target/ops-page-cut.png"));
                } finally {
                    stack.heal(cut);
                }
            } finally {
                browser.quit();
            }
        } finally {
            background.shutdownNow();
        }
    }

    /**
     * Every target of every panel, and every template variable's query, run as Grafana would run
     * them with region = all regions; retried for up to {@code patience} while rate windows fill.
     */
    static List<String> deadPanels(String prometheus, List<String> regions, Duration patience) throws Exception {
        String allRegions = String.join("|", regions);
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            List<String> dead = new ArrayList<>();
            int queries = 0;
            try (Stream<Path> files = Files.list(DASHBOARDS)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                    JsonNode dashboard = JSON.readTree(Files.readString(file));
                    for (JsonNode variable : dashboard.path("templating").path("list")) {
                        String definition = variable.path("definition").asString("");
                        if (definition.startsWith("label_values(")) {
                            // label_values(SELECTOR, LABEL): the selector's series must carry the label
                            String inner = definition.substring("label_values(".length(), definition.lastIndexOf(')'));
                            String selector = inner.substring(0, inner.lastIndexOf(',')).strip();
                            String label = inner.substring(inner.lastIndexOf(',') + 1).strip();
                            queries++;
                            JsonNode result = query(prometheus, "count by (" + label + ") (" + selector + ")");
                            if (result == null || result.size() < regions.size()) {
                                dead.add(file.getFileName() + ": variable " + variable.path("name").asString() + ": " + definition + " -> " + result);
                            }
                        }
                    }
                    for (JsonNode panel : dashboard.path("panels")) {
                        for (JsonNode target : panel.path("targets")) {
                            String expr = target.path("expr").asString()
                                    .replace("$__rate_interval", "30s").replace("$__interval", "5s").replace("$region", allRegions);
                            queries++;
                            JsonNode result = query(prometheus, expr);
                            if (result == null || result.isEmpty()) {
                                dead.add(file.getFileName() + ": " + panel.path("title").asString() + ": " + expr + " -> " + (result == null ? "error" : "no series"));
                            }
                        }
                    }
                }
            }
            assertThat(queries).isGreaterThan(40);
            if (dead.isEmpty() || System.nanoTime() > deadline) {
                System.out.println("dead-panel check: " + queries + " queries, " + dead.size() + " without series");
                return dead;
            }
            Thread.sleep(5_000);
        }
    }

    /** The instant query's result vector, or null when Prometheus refuses the query. */
    static JsonNode query(String prometheus, String promql) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(prometheus + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(response.body());
        if (!"success".equals(body.path("status").asString())) {
            System.out.println("query refused: " + promql + ": " + body.path("error").asString());
            return null;
        }
        return body.path("data").path("result");
    }

    private static void awaitSeries(String prometheus, String promql, Duration timeout, Future<?> load) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (load.isDone()) {
                load.get(); // the load failed: say why
                fail("the load ended before " + promql + " returned data");
            }
            JsonNode result = query(prometheus, promql);
            if (result != null && !result.isEmpty()) {
                return;
            }
            Thread.sleep(2_000);
        }
        fail("no data for " + promql + " within " + timeout.toSeconds() + " s");
    }

    /**
     * Flags that work here (machines/polyglot.md): no sandbox as root, no GPU, no background networking. The profile
     * lives in a directory JUnit deletes after the test.
     */
    private static ChromeDriver chromium(Path profile) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--window-size=1500,1150", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60)).scriptTimeout(Duration.ofSeconds(30));
        return driver;
    }

    /** Polls the page's {@code window.opsState} until {@code condition} (on {@code s}) holds; returns the state. */
    private static Map<?, ?> awaitPage(ChromeDriver browser, String condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Object state = null;
        while (System.nanoTime() < deadline) {
            Object ok = ((JavascriptExecutor) browser).executeScript("const s = window.opsState; return !!(s && " + condition + ");");
            state = ((JavascriptExecutor) browser).executeScript("return window.opsState;");
            if (Boolean.TRUE.equals(ok)) {
                return (Map<?, ?>) state;
            }
            Thread.sleep(1_000);
        }
        screenshot(browser, Path.of("target/ops-page-timeout.png"));
        fail("the ops page never reached " + condition + "; its state: " + state + "; problem shown: "
                + browser.findElement(org.openqa.selenium.By.id("problem")).getText());
        return Map.of();
    }

    private static void screenshot(ChromeDriver browser, Path file) {
        try {
            Files.createDirectories(file.getParent());
            Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), file, StandardCopyOption.REPLACE_EXISTING);
            System.out.println("screenshot: " + file.toAbsolutePath());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
