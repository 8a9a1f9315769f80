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

import org.brokerapp.infra.KafkaAccess;
import org.brokerapp.infra.LeanJvm;
import org.brokerapp.infra.LocalStack;
import org.brokerapp.infra.Progress;

/**
 * The regional brokers of a load run, each from this build's broker-service jar, in a JVM of its
 * own, against a running {@link LocalStack} (one the harness started, or one a test shares). They
 * stop on {@link #close} and, should the JVM end first (Ctrl-C), from a shutdown hook.
 */
public final class BrokerProcesses implements AutoCloseable {

    /** Usually under a minute; the first broker's schema migrations took over 3 min on a 2-core machine saturated by other work. */
    static final Duration READY_TIMEOUT = Duration.ofSeconds(600);

    private final Map<String, Process> processes = new java.util.concurrent.ConcurrentHashMap<>();
    /** Each region's command and log, to start it again after a drill killed it. */
    private final Map<String, ProcessBuilder> launchers = new LinkedHashMap<>();
    private final Map<String, String> urls = new LinkedHashMap<>();
    private final Map<String, Long> startedAt = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Long> readyAt = new java.util.concurrent.ConcurrentHashMap<>();
    private final Thread shutdownHook = new Thread(this::stop, "brokers-shutdown");
    /** Polls readiness; on a TLS stack it trusts the stack's CA. */
    private HttpClient readiness = HttpClient.newHttpClient();
    /** The JVM launcher, and which broker records the class data sharing archive (none when it exists already). */
    private BrokerJvm jvm;
    private String training;
    private BrokerClocks clocks = BrokerClocks.hosts();

    private BrokerProcesses() {
        // Ctrl-C or SIGTERM must not leave brokers behind
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    public static BrokerProcesses start(LocalStack stack, Path jar, Path logs, int loadCustomers, Progress progress) {
        return start(stack, jar, logs, loadCustomers, List.of(), progress);
    }

    /** As {@link #start(LocalStack, Path, Path, int, Progress)}, with extra {@code --key=value} arguments for every broker. */
    public static BrokerProcesses start(LocalStack stack, Path jar, Path logs, int loadCustomers, List<String> extraArgs, Progress progress) {
        return start(stack, jar, logs, loadCustomers, extraArgs, BrokerClocks.hosts(), progress);
    }

    /** As {@link #start(LocalStack, Path, Path, int, List, Progress)}, each broker on the clock {@code clocks} gives it. */
    public static BrokerProcesses start(LocalStack stack, Path jar, Path logs, int loadCustomers, List<String> extraArgs, BrokerClocks clocks,
                                        Progress progress) {
        BrokerProcesses brokers = new BrokerProcesses();
        brokers.clocks = clocks;
        stack.tls().ifPresent(tls -> brokers.readiness = HttpClient.newBuilder().sslContext(tls.clientContext()).build());
        try {
            Files.createDirectories(logs);
            // an extracted copy of the jar (a build rewriting the jar under a starting JVM cannot touch it) with a
            // class data sharing archive: the first broker ever started from this jar writes it, later starts use it
            BrokerJvm jvm = BrokerJvm.of(jar);
            brokers.jvm = jvm;
            boolean training = !jvm.hasArchive();
            if (training) {
                progress.step("the first broker from this jar records a class data sharing archive when it stops: later starts are faster");
            }
            for (String region : stack.regions().names()) {
                // where the stack's WAN emulator forwards other regions' broker traffic
                String hostAndPort = stack.brokerAddress(region);
                String host = hostAndPort.substring(0, hostAndPort.lastIndexOf(':'));
                String port = hostAndPort.substring(hostAndPort.lastIndexOf(':') + 1);
                List<String> jvmOptions = new ArrayList<>(List.of("-Xms512m", "-Xmx512m"));
                jvmOptions.addAll(LeanJvm.SMALL_MACHINE);
                List<String> command = jvm.command(Path.of(System.getProperty("java.home"), "bin", "java"), jvmOptions,
                        training && brokers.processes.isEmpty());
                command.addAll(List.of(
                        // the local profile: demo secrets (operator-pw, token key) and the load customers' passwords
                        "--spring.profiles.active=local",
                        "--broker.region=" + region,
                        "--broker.kafka.bootstrap-servers=" + stack.kafkaBootstrapServers(region),
                        "--broker.kafka.username=" + KafkaAccess.broker(region),
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
                if (stack.searchRunning()) {
                    // search on: this broker indexes its region's order events and fans searches out to every region
                    for (String any : stack.regions().names()) {
                        command.add("--broker.search.elasticsearch." + any + "=" + stack.elasticsearchUrl(any));
                    }
                }
                // on a TLS stack: HTTPS with the region's certificate, CQL over TLS, https peers, all trusting the stack's CA
                stack.brokerTlsProperties(region).forEach((key, value) -> command.add("--" + key + "=" + value));
                // the live ops page (/ops) charts every region from the stack's Prometheus
                stack.prometheusUrl().ifPresent(url -> command.add("--broker.ops.prometheus-url=" + url));
                if (training && brokers.processes.isEmpty()) {
                    brokers.training = region;
                }
                command.addAll(extraArgs);
                Path log = logs.resolve("broker-" + region + ".log");
                brokers.startedAt.put(region, System.nanoTime());
                ProcessBuilder launcher = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
                // from the environment, not the command line, which any local user can read
                launcher.environment().put("BROKER_KAFKA_PASSWORD", stack.kafkaCredential(KafkaAccess.broker(region)).password());
                clocks.prepare(region, launcher);
                Files.deleteIfExists(log);
                brokers.launchers.put(region, launcher);
                brokers.processes.put(region, launcher.start());
                brokers.urls.put(region, stack.brokerUrl(region));
                progress.step("starting broker " + region + " on " + hostAndPort + " (log " + log + ")");
                if (brokers.processes.size() == 1) {
                    // the first broker applies the schema migrations; two at once on a fresh cluster race each other
                    // ("table schema_migrations does not exist"), so the others start once it is ready
                    brokers.awaitReady(region, READY_TIMEOUT);
                    progress.step("broker " + region + " ready in " + brokers.startTime(region) + " (schema in place)");
                }
            }
            for (String region : stack.regions().names()) {
                brokers.awaitReady(region, READY_TIMEOUT);
                progress.step("broker " + region + " ready in " + brokers.startTime(region));
            }
            return brokers;
        } catch (IOException | RuntimeException e) {
            brokers.close();
            throw new IllegalStateException("brokers did not start: " + e.getMessage(), e);
        }
    }

    /** From the broker's JVM start to its readiness answering UP (as seen by polling every 500 ms). */
    private String startTime(String region) {
        return String.format(java.util.Locale.ROOT, "%.1f s", (readyAt.get(region) - startedAt.get(region)) / 1e9);
    }

    /** Kills the region's broker at once (SIGKILL: no shutdown hook, no graceful stop), as a crash would. */
    public synchronized void kill(String region) {
        Process broker = processes.get(region);
        broker.destroyForcibly();
        try {
            broker.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts the region's broker again, as it was started first, and waits until it is ready: the time that took. */
    public Duration restart(String region) {
        synchronized (this) {
            if (processes.get(region).isAlive()) {
                throw new IllegalStateException("broker " + region + " is still running");
            }
            try {
                readyAt.remove(region);
                startedAt.put(region, System.nanoTime());
                processes.put(region, launchers.get(region).start());
            } catch (IOException e) {
                throw new IllegalStateException("broker " + region + " did not start again: " + e.getMessage(), e);
            }
        }
        awaitReady(region, READY_TIMEOUT);
        return Duration.ofNanos(readyAt.get(region) - startedAt.get(region));
    }

    /** Steps the region's broker clock to {@code offset} from the host's (only a broker started on a steppable clock). */
    public void stepClock(String region, Duration offset) {
        clocks.step(region, offset);
    }

    /** Each region's broker process id, in region order. */
    public Map<String, Long> pids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        urls.keySet().forEach(region -> pids.put(region, processes.get(region).pid()));
        return pids;
    }

    public String url(String region) {
        return urls.get(region);
    }

    /** Each region's broker base URL, in region order. */
    public Map<String, String> urls() {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(urls));
    }

    private void awaitReady(String region, Duration timeout) {
        HttpClient http = readiness;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!processes.get(region).isAlive()) {
                throw new IllegalStateException("broker " + region + " exited");
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(urls.get(region) + "/actuator/health/readiness")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    readyAt.putIfAbsent(region, System.nanoTime());
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(200);
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

    private synchronized void stop() {
        processes.values().forEach(Process::destroy);
        for (Map.Entry<String, Process> broker : processes.entrySet()) {
            Process p = broker.getValue();
            boolean exited = false;
            try {
                // the broker recording the archive writes it on its way out: give it longer
                exited = p.waitFor(broker.getKey().equals(training) ? 90 : 30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (!exited) {
                p.destroyForcibly();
            }
            if (broker.getKey().equals(training)) {
                jvm.keepTrainedArchive(exited);
                training = null;
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
