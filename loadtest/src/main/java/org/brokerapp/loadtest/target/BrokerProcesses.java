package org.brokerapp.loadtest.target;

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

/**
 * The regional brokers of a load run, each from this build's broker-service jar, in a JVM of its
 * own, against a running {@link LocalStack} (one the harness started, or one a test shares). They
 * stop on {@link #close} and, should the JVM end first (Ctrl-C), from a shutdown hook.
 */
public final class BrokerProcesses implements AutoCloseable {

    private final Map<String, Process> processes = new LinkedHashMap<>();
    private final Map<String, String> urls = new LinkedHashMap<>();
    private final Thread shutdownHook = new Thread(this::stop, "brokers-shutdown");

    private BrokerProcesses() {
        // Ctrl-C or SIGTERM must not leave brokers behind
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    public static BrokerProcesses start(LocalStack stack, Path jar, Path logs, int loadCustomers, Progress progress) {
        return start(stack, jar, logs, loadCustomers, List.of(), progress);
    }

    /** As {@link #start(LocalStack, Path, Path, int, Progress)}, with extra {@code --key=value} arguments for every broker. */
    /** How long a broker may take to be ready; {@code -Dbrokers.start-timeout-s} gives a busy shared machine more. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(Long.getLong("brokers.start-timeout-s", 180));

    public static BrokerProcesses start(LocalStack stack, Path jar, Path logs, int loadCustomers, List<String> extraArgs, Progress progress) {
        BrokerProcesses brokers = new BrokerProcesses();
        try {
            Files.createDirectories(logs);
            // a private copy: a build rewriting the jar under a starting JVM makes it fail with NoClassDefFoundError
            Path privateJar = logs.resolve("broker-service.jar");
            Files.copy(jar, privateJar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            for (String region : stack.regions().names()) {
                // where the stack's WAN emulator forwards other regions' broker traffic
                String hostAndPort = stack.brokerAddress(region);
                String host = hostAndPort.substring(0, hostAndPort.lastIndexOf(':'));
                String port = hostAndPort.substring(hostAndPort.lastIndexOf(':') + 1);
                List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xms512m", "-Xmx512m", "-jar", privateJar.toString(),
                        "--broker.region=" + region,
                        "--broker.kafka.bootstrap-servers=" + stack.kafkaBootstrapServers(region),
                        "--broker.load-customers=" + loadCustomers,
                        "--spring.cassandra.contact-points=" + stack.cqlContactPoints(region).stream()
                                .map(a -> a.getHostString() + ":" + a.getPort()).collect(Collectors.joining(",")),
                        "--spring.cassandra.local-datacenter=" + stack.localDatacenter(region),
                        "--server.address=" + host, "--server.port=" + port));
                for (String other : stack.regions().names()) {
                    if (!other.equals(region)) {
                        // market orders placed here for symbols homed there go through the WAN emulator
                        command.add("--broker.routing.peers." + other + "=" + stack.brokerUrlFromOtherRegions(other));
                    }
                }
                // the live ops page (/ops) charts every region from the stack's Prometheus
                stack.prometheusUrl().ifPresent(url -> command.add("--broker.ops.prometheus-url=" + url));
                command.addAll(extraArgs);
                Path log = logs.resolve("broker-" + region + ".log");
                brokers.processes.put(region, new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start());
                brokers.urls.put(region, "http://" + hostAndPort);
                progress.step("starting broker " + region + " on " + hostAndPort + " (log " + log + ")");
                if (brokers.processes.size() == 1) {
                    // the first broker applies the schema migrations; two at once on a fresh cluster race each other
                    // ("table schema_migrations does not exist"), so the others start once it is ready
                    brokers.awaitReady(region, START_TIMEOUT);
                    progress.step("broker " + region + " ready (schema in place)");
                }
            }
            for (String region : stack.regions().names()) {
                brokers.awaitReady(region, START_TIMEOUT);
                progress.step("broker " + region + " ready");
            }
            return brokers;
        } catch (IOException | RuntimeException e) {
            brokers.close();
            throw new IllegalStateException("brokers did not start: " + e.getMessage(), e);
        }
    }

    public String url(String region) {
        return urls.get(region);
    }

    /** Each region's broker base URL, in region order. */
    public Map<String, String> urls() {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(urls));
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
    public synchronized void close() {
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

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
