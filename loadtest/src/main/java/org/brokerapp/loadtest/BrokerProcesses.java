package org.brokerapp.loadtest;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.brokerapp.infra.LocalStack;
import org.brokerapp.infra.Progress;

/** The regional brokers of a load run, each from this build's broker-service jar, in a JVM of its own. */
final class BrokerProcesses implements AutoCloseable {

    private final Map<String, Process> processes = new LinkedHashMap<>();
    private final Map<String, String> urls = new LinkedHashMap<>();
    private final Thread shutdownHook = new Thread(this::stop, "brokers-shutdown");

    private BrokerProcesses() {
        // Ctrl-C or SIGTERM must not leave brokers behind
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    static BrokerProcesses start(LocalStack stack, Path jar, Path logs, int loadCustomers, Progress progress) {
        BrokerProcesses brokers = new BrokerProcesses();
        try {
            int r = 0;
            for (String region : stack.regions().names()) {
                r++;
                String address = "127." + (2 * stack.layout().settings().instance()) + "." + r + ".3";
                List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xms512m", "-Xmx512m", "-jar", jar.toString(),
                        "--broker.region=" + region,
                        "--broker.kafka.bootstrap-servers=" + stack.kafkaBootstrapServers(region),
                        "--broker.load-customers=" + loadCustomers,
                        "--spring.cassandra.contact-points=" + stack.cqlContactPoints(region).stream()
                                .map(a -> a.getHostString() + ":" + a.getPort()).collect(Collectors.joining(",")),
                        "--spring.cassandra.local-datacenter=" + stack.localDatacenter(region),
                        "--server.address=" + address, "--server.port=8080"));
                Files.createDirectories(logs);
                Path log = logs.resolve("broker-" + region + ".log");
                brokers.processes.put(region, new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start());
                brokers.urls.put(region, "http://" + address + ":8080");
                progress.step("starting broker " + region + " on " + address + ":8080 (log " + log + ")");
            }
            for (String region : stack.regions().names()) {
                brokers.awaitReady(region, Duration.ofSeconds(120));
                progress.step("broker " + region + " ready");
            }
            return brokers;
        } catch (IOException | RuntimeException e) {
            brokers.close();
            throw new IllegalStateException("brokers did not start: " + e.getMessage(), e);
        }
    }

    String url(String region) {
        return urls.get(region);
    }

    private void awaitReady(String region, Duration timeout) {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!processes.get(region).isAlive()) {
                throw new IllegalStateException("broker " + region + " exited");
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(urls.get(region) + "/actuator/health/readiness")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(500);
        }
        throw new IllegalStateException("broker " + region + " not ready within " + timeout);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it stops them
        }
        stop();
    }

    private void stop() {
        processes.values().forEach(Process::destroy);
        for (Process p : processes.values()) {
            try {
                if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
