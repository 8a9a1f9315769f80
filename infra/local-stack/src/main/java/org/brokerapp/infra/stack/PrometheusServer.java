package org.brokerapp.infra.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.ServerLibraries;
import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.KafkaBroker;
import org.brokerapp.regions.RegionsModel;

/**
 * A real Prometheus (Debian's {@code prometheus} package) over the local stack, with a scrape
 * configuration generated from the regions model and the address plan: every region's broker at
 * its planned address (started by whoever starts brokers, so a broker not running is simply
 * {@code up == 0}), every Cassandra node and Kafka broker through its JMX exporter agent, the WAN
 * emulator's state ({@link WanStateExporter}; toxiproxy 2.5's own byte counters move only when a
 * connection closes, and the stack's connections are long-lived, so they are not scraped), and
 * Prometheus itself. Rules come from {@code infra/monitoring/rules}.
 */
final class PrometheusServer {

    static final String BINARY_ENV = "PROMETHEUS";
    static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(5);
    /** The operator's password in the brokers' local profile (broker-service application-local.yaml). */
    static final String LOCAL_OPERATOR_PASSWORD = "operator-pw";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private PrometheusServer() {
    }

    /** Where {@code prometheus} is installed: {@code $PROMETHEUS}, the PATH, or Debian's /usr/bin. */
    static Optional<Path> findBinary() {
        Stream<Path> candidates = Stream.concat(
                Stream.ofNullable(System.getenv(BINARY_ENV)).map(Path::of),
                Stream.concat(
                        Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).filter(s -> !s.isEmpty()).map(d -> Path.of(d, "prometheus")),
                        Stream.of(Path.of("/usr/bin/prometheus"))));
        return candidates.filter(Files::isExecutable).findFirst();
    }

    static String url(AddressPlan plan) {
        return "http://" + plan.wanControlAddress() + ":" + plan.prometheusPort();
    }

    static ServerProcess start(Path binary, StackLayout layout, ServerLibraries libs) {
        AddressPlan plan = layout.settings().addresses();
        Path dir = layout.settings().workDir().resolve("prometheus");
        Path config = dir.resolve("prometheus.yml");
        try {
            Files.createDirectories(dir.resolve("data"));
            Files.writeString(config, scrapeConfig(layout, libs.monitoring().resolve("rules")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ServerProcess process = ServerProcess.start("prometheus", List.of(binary.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--storage.tsdb.retention.time=1d",
                "--web.listen-address=" + plan.wanControlAddress() + ":" + plan.prometheusPort()), dir.resolve("console.log"));
        awaitReady(process, URI.create(url(plan) + "/-/ready"));
        return process;
    }

    private static void awaitReady(ServerProcess process, URI ready) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new StackException("prometheus exited before it was ready; see " + process.console());
            }
            try {
                if (http.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StackException("interrupted");
            }
            ServerProcess.sleep(Duration.ofMillis(200));
        }
        process.stop(Duration.ofSeconds(5));
        throw new StackException("prometheus not ready after " + START_TIMEOUT.toSeconds() + " s; see " + process.console());
    }

    /** The generated prometheus.yml: one job per kind of server, every target labelled with its region. */
    static String scrapeConfig(StackLayout layout, Path rulesDir) {
        StackSettings settings = layout.settings();
        AddressPlan plan = settings.addresses();
        RegionsModel regions = settings.regions();
        String control = plan.wanControlAddress();
        StringBuilder y = new StringBuilder();
        y.append("# Generated by the local stack (infra/local-stack PrometheusServer) from the regions model and the address plan.\n");
        y.append("global:\n");
        y.append("  scrape_interval: ").append(SCRAPE_INTERVAL.toSeconds()).append("s\n");
        y.append("  scrape_timeout: 4s\n");
        y.append("  evaluation_interval: ").append(SCRAPE_INTERVAL.toSeconds()).append("s\n");
        y.append("  external_labels:\n    stack_instance: \"").append(plan.instance()).append("\"\n");
        y.append("rule_files:\n  - ").append(rulesDir.toAbsolutePath().normalize().resolve("*.yml")).append('\n');
        y.append("scrape_configs:\n");
        // the brokers label their own meters with their region; honor_labels keeps theirs
        // metrics are the operator's: the brokers the stack's users start run the local profile, whose operator this is
        y.append("  - job_name: broker\n    metrics_path: /actuator/prometheus\n    honor_labels: true\n")
                .append("    basic_auth: {username: operator, password: ").append(LOCAL_OPERATOR_PASSWORD).append("}\n    static_configs:\n");
        for (int r = 1; r <= regions.names().size(); r++) {
            target(y, plan.brokerAddress(r) + ":" + AddressPlan.BROKER_PORT, "region: " + regions.names().get(r - 1));
        }
        if (!layout.cassandra().isEmpty()) {
            y.append("  - job_name: cassandra\n    static_configs:\n");
            for (CassandraNode node : layout.cassandra()) {
                target(y, node.address() + ":" + AddressPlan.JMX_EXPORTER_PORT,
                        "region: " + node.region().name() + ", dc: " + node.region().datacenter() + ", node: \"" + node.node() + "\"");
            }
        }
        y.append("  - job_name: kafka\n    static_configs:\n");
        for (KafkaBroker broker : layout.kafka()) {
            target(y, broker.address() + ":" + AddressPlan.JMX_EXPORTER_PORT, "region: " + broker.region().name());
        }
        y.append("  - job_name: wan\n    static_configs:\n");
        target(y, control + ":" + plan.wanExporterPort(), "component: state");
        y.append("  - job_name: prometheus\n    static_configs:\n");
        target(y, control + ":" + plan.prometheusPort(), "component: self");
        return y.toString();
    }

    private static void target(StringBuilder y, String address, String labels) {
        y.append("      - targets: ['").append(address).append("']\n        labels: {").append(labels).append("}\n");
    }
}
