package org.brokerapp.loadtest.deployment;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
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
import java.util.Optional;
import java.util.stream.Collectors;

import org.brokerapp.client.BearerTokens;
import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.LeanJvm;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.servers.SearchLogins;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.loadtest.prometheus.PrometheusHistogram;

/**
 * The regional brokers of a load run, each from this build's broker-service jar, in a JVM of its
 * own, against a running {@link LocalStack} (one the harness started, or one a test shares). They
 * stop on {@link #close} and, should the JVM end first (Ctrl-C), from a shutdown hook.
 *
 * <p>A region runs one instance on the region's broker address, or several, each on a port of its
 * own at the same host, behind a {@link RegionFront} on that address: what a Service or a load
 * balancer is in a deployment. The instances share the region's symbols and customers through their
 * consumer groups, and reach each other at their own URLs ({@code broker.advertised-url}).
 */
public final class BrokerProcesses implements AutoCloseable {

    /** Usually under a minute; the first broker's schema migrations took over 3 min on a 2-core machine saturated by other work. */
    static final Duration READY_TIMEOUT = Duration.ofSeconds(600);
    /** The broker's {@code SchemaMigrations.IN_PLACE} log line; were it renamed, the others would wait for readiness instead. */
    static final String SCHEMA_IN_PLACE = "schema in place";
    /** How long a drill waits for the survivors of a killed instance to hold everything it held: two lease lifetimes, and more. */
    static final Duration TAKE_OVER_TIMEOUT = Duration.ofSeconds(120);
    /** Tick partitions whose decision lease an instance holds, and customer partitions whose lease it holds. */
    /** Readiness checks in a row that must fail before a front stops sending an instance new connections. */
    static final int FAILURES_TO_LEAVE = 2;
    static final List<String> LEASE_GAUGES = List.of("broker_decision_leases_held", "broker_account_leases_held");

    /** One broker JVM: instance {@code number} (from 1) of its region. */
    record Instance(String region, int number) {

        String name() {
            return number == 1 ? region : region + " #" + number;
        }
    }

    private final Map<Instance, Process> processes = new java.util.concurrent.ConcurrentHashMap<>();
    /** Each instance's command and log, to start it again after a drill killed it. */
    private final Map<Instance, ProcessBuilder> launchers = new LinkedHashMap<>();
    private final Map<Instance, String> instanceUrls = new LinkedHashMap<>();
    /** Each region's one URL: its only instance, or the front of its instances. */
    private final Map<String, String> urls = new LinkedHashMap<>();
    private final Map<String, RegionFront> fronts = new LinkedHashMap<>();
    private final Map<Instance, Long> startedAt = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<Instance, Long> readyAt = new java.util.concurrent.ConcurrentHashMap<>();
    /** What each instance had burned when its readiness first answered UP: a start on a busy machine waits for a core more than it works. */
    private final Map<Instance, String> cpuAtReady = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<Instance, Path> logs = new java.util.concurrent.ConcurrentHashMap<>();
    /** What the killed instance's region held before the kill, per lease gauge; and when it was killed (System.nanoTime). */
    private final Map<String, Map<String, Double>> heldBeforeKill = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Long> killedAt = new java.util.concurrent.ConcurrentHashMap<>();
    private final Thread shutdownHook = new Thread(this::stop, "brokers-shutdown");
    private volatile boolean stopped;
    /** Polls readiness; on a TLS stack it trusts the stack's CA. */
    private HttpClient readiness = HttpClient.newHttpClient();
    /** The JVM launcher, and which broker records the class data sharing archive (none when it exists already). */
    private BrokerJvm jvm;
    private Instance training;
    private BrokerClocks clocks = BrokerClocks.hosts();
    private Progress progress;
    /** What each front was last told of each instance, to report the changes. */
    private final Map<Instance, Boolean> frontSees = new java.util.concurrent.ConcurrentHashMap<>();

    private BrokerProcesses() {
        // Ctrl-C or SIGTERM must not leave brokers behind
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    public static BrokerProcesses start(LocalStack stack, Path jar, Path logs, int loadCustomers, Progress progress) {
        return start(stack, jar, logs, loadCustomers, List.of(), progress);
    }

    /** As {@link #start(LocalStack, Path, Path, int, Progress)}, with extra {@code --key=value} arguments for every broker. */
    public static BrokerProcesses start(LocalStack stack, Path jar, Path logs, int loadCustomers, List<String> extraArgs, Progress progress) {
        return start(stack, jar, logs, loadCustomers, extraArgs, BrokerClocks.hosts(), 1, progress);
    }

    /**
     * As {@link #start(LocalStack, Path, Path, int, List, Progress)}, each broker on the clock {@code clocks} gives it, and
     * {@code instancesPerRegion} instances in each region (more than one: behind a {@link RegionFront}).
     */
    public static BrokerProcesses start(LocalStack stack, Path jar, Path logs, int loadCustomers, List<String> extraArgs, BrokerClocks clocks,
                                        int instancesPerRegion, Progress progress) {
        if (instancesPerRegion < 1) {
            throw new IllegalArgumentException("a region needs at least one broker instance, was " + instancesPerRegion);
        }
        BrokerProcesses brokers = new BrokerProcesses();
        brokers.clocks = clocks;
        brokers.progress = progress;
        stack.tls().ifPresent(tls -> brokers.readiness = HttpClient.newBuilder().sslContext(tls.clientContext()).build());
        try {
            Files.createDirectories(logs);
            // an extracted copy of the jar (a build rewriting the jar under a starting JVM cannot touch it) with a
            // class data sharing archive: the first broker ever started from this jar writes it, later starts use it
            BrokerJvm jvm = BrokerJvm.of(jar, Path.of(System.getProperty("java.home"), "bin", "java"));
            brokers.jvm = jvm;
            boolean training = !jvm.hasArchive();
            if (training) {
                progress.step("the first broker from this jar records a class data sharing archive when it stops: later starts are faster");
            }
            for (String region : stack.regions().names()) {
                // where the stack's WAN emulator forwards other regions' broker traffic
                String hostAndPort = stack.brokerAddress(region);
                String host = hostAndPort.substring(0, hostAndPort.lastIndexOf(':'));
                String regionUrl = stack.brokerUrl(region);
                String scheme = regionUrl.substring(0, regionUrl.indexOf("://") + 3);
                List<InetSocketAddress> addresses = new ArrayList<>();
                for (int number = 1; number <= instancesPerRegion; number++) {
                    Instance instance = new Instance(region, number);
                    int port = instancesPerRegion == 1 ? AddressPlan.BROKER_PORT : freePort(host);
                    addresses.add(new InetSocketAddress(host, port));
                    List<String> command = brokers.command(stack, instance, host, port, loadCustomers,
                            training && brokers.processes.isEmpty(), extraArgs);
                    if (instancesPerRegion > 1) {
                        // the other instances of the region hand it work (orders of its customers, fills of its symbols) here
                        command.add("--broker.advertised-url=" + scheme + host + ":" + port);
                    }
                    brokers.instanceUrls.put(instance, scheme + host + ":" + port);
                    brokers.launch(stack, instance, command, logs, progress);
                    if (brokers.processes.size() == 1) {
                        // the first broker applies the schema migrations; two at once on a fresh cluster race each other
                        // ("table schema_migrations does not exist"), so the others start once it has logged them in place
                        brokers.awaitSchema(instance, READY_TIMEOUT);
                        progress.step("broker " + instance.name() + ": schema in place after " + brokers.sinceStart(instance) + "; starting the others");
                    }
                }
                if (instancesPerRegion > 1) {
                    brokers.fronts.put(region, RegionFront.open(region, new InetSocketAddress(host, AddressPlan.BROKER_PORT), addresses));
                    progress.step("region " + region + ": " + instancesPerRegion + " broker instances behind one address, " + hostAndPort);
                }
                brokers.urls.put(region, regionUrl);
            }
            for (Instance instance : brokers.launchers.keySet()) {
                brokers.awaitReady(instance, READY_TIMEOUT);
                progress.step("broker " + instance.name() + " ready in " + brokers.startTime(instance));
            }
            if (!brokers.fronts.isEmpty()) {
                Thread watcher = new Thread(brokers::watchReadiness, "fronts-readiness");
                watcher.setDaemon(true);
                watcher.start();
            }
            return brokers;
        } catch (IOException | RuntimeException e) {
            brokers.close();
            throw new IllegalStateException("brokers did not start: " + e.getMessage(), e);
        }
    }

    private List<String> command(LocalStack stack, Instance instance, String host, int port, int loadCustomers, boolean records,
                                 List<String> extraArgs) {
        String region = instance.region();
        List<String> jvmOptions = new ArrayList<>(List.of("-Xms512m", "-Xmx512m"));
        jvmOptions.addAll(LeanJvm.SMALL_MACHINE);
        List<String> command = jvm.command(jvmOptions, records);
        if (records) {
            training = instance;
        }
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
            // every node asks for a login; the password goes in the environment (below), not on a command line
            command.add("--broker.search.username=" + SearchLogins.BROKER);
        }
        // on a TLS stack: HTTPS with the region's certificate, CQL over TLS, https peers, all trusting the stack's CA
        stack.brokerTlsProperties(region).forEach((key, value) -> command.add("--" + key + "=" + value));
        // the live ops page (/ops) charts every region from the stack's Prometheus
        stack.prometheusUrl().ifPresent(url -> command.add("--broker.ops.prometheus-url=" + url));
        command.addAll(extraArgs);
        return command;
    }

    private void launch(LocalStack stack, Instance instance, List<String> command, Path logs, Progress progress) throws IOException {
        String region = instance.region();
        Path log = logs.resolve("broker-" + region + (instance.number() == 1 ? "" : "-" + instance.number()) + ".log");
        this.logs.put(instance, log);
        startedAt.put(instance, System.nanoTime());
        // its temporary files (Tomcat's work directories) beside its log, not in /tmp: a broker a drill kills leaves them behind
        Path tmp = Files.createDirectories(logs.resolve(log.getFileName().toString().replace(".log", ".tmp")));
        List<String> withTmp = new ArrayList<>(command);
        withTmp.add(1, "-Djava.io.tmpdir=" + tmp.toAbsolutePath());
        ProcessBuilder launcher = new ProcessBuilder(withTmp).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        // from the environment, not the command line, which any local user can read
        launcher.environment().put("BROKER_KAFKA_PASSWORD", stack.kafkaCredential(KafkaAccess.broker(region)).password());
        launcher.environment().put("BROKER_SEARCH_PASSWORD", stack.searchLogins().password(SearchLogins.BROKER));
        clocks.prepare(region, launcher);
        Files.deleteIfExists(log);
        launchers.put(instance, launcher);
        processes.put(instance, launcher.start());
        progress.step("starting broker " + instance.name() + " on " + instanceUrls.get(instance) + " (log " + log + ")");
    }

    private static int freePort(String host) throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName(host))) {
            return socket.getLocalPort();
        }
    }

    private String sinceStart(Instance instance) {
        return String.format(java.util.Locale.ROOT, "%.1f s", (System.nanoTime() - startedAt.get(instance)) / 1e9);
    }

    /** Until the broker's log says its schema is in place (the broker's {@code SchemaMigrations.IN_PLACE}), or it is ready. */
    private void awaitSchema(Instance instance, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!processes.get(instance).isAlive()) {
                throw new IllegalStateException("broker " + instance.name() + " exited (log " + logs.get(instance) + ")");
            }
            if (logSays(logs.get(instance), SCHEMA_IN_PLACE) || isReady(instance)) {
                return;
            }
            sleep(200);
        }
        throw new IllegalStateException("broker " + instance.name() + " did not put its schema in place within " + timeout + " (log " + logs.get(instance) + ")");
    }

    private static boolean logSays(Path log, String marker) {
        try (java.util.stream.Stream<String> lines = Files.lines(log, java.nio.charset.StandardCharsets.UTF_8)) {
            return lines.anyMatch(line -> line.contains(marker));
        } catch (IOException | java.io.UncheckedIOException notYet) {
            return false;
        }
    }

    /** From the broker's JVM start to its readiness answering UP (as seen by polling every 200 ms), and the CPU it burned meanwhile. */
    private String startTime(Instance instance) {
        double wall = (readyAt.get(instance) - startedAt.get(instance)) / 1e9;
        return String.format(java.util.Locale.ROOT, "%.1f s", wall) + cpuAtReady.getOrDefault(instance, "");
    }

    /** ", burning 21.4 s of CPU (JIT 7.9 s)"; empty where there is no /proc. */
    private String cpuSoFar(Instance instance) {
        long pid = processes.get(instance).pid();
        return org.brokerapp.infra.host.ProcessCpu.cpuTime(pid)
                .map(cpu -> String.format(java.util.Locale.ROOT, ", burning %.1f s of CPU (JIT %.1f s)", cpu.toMillis() / 1e3,
                        org.brokerapp.infra.host.ProcessCpu.jitTime(pid).toMillis() / 1e3))
                .orElse("");
    }

    /**
     * Kills the region's broker at once (SIGKILL: no shutdown hook, no graceful stop), as a crash would; where the region
     * runs several instances, its first one, after noting what leases the region's instances hold between them.
     */
    public void kill(String region) {
        Instance first = new Instance(region, 1);
        if (fronts.containsKey(region)) {
            heldBeforeKill.put(region, held(instancesOf(region)));
        }
        Process broker;
        synchronized (this) {
            broker = processes.get(first);
            broker.destroyForcibly();
        }
        killedAt.put(region, System.nanoTime());
        try {
            broker.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * After {@link #kill}, where the region runs several instances: waits until the survivors hold every lease the region's
     * instances held before the kill (its symbols and customers decided again), and returns how long after the kill that
     * was; empty for a region of one instance.
     */
    public Optional<Duration> awaitTakeOver(String region) {
        Map<String, Double> before = heldBeforeKill.get(region);
        if (before == null) {
            return Optional.empty();
        }
        List<Instance> survivors = instancesOf(region).stream().filter(i -> i.number() != 1).toList();
        long deadline = System.nanoTime() + TAKE_OVER_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Double> now = held(survivors);
            if (before.entrySet().stream().allMatch(e -> now.getOrDefault(e.getKey(), 0.0) >= e.getValue())) {
                return Optional.of(Duration.ofNanos(System.nanoTime() - killedAt.get(region)));
            }
            sleep(200);
        }
        throw new IllegalStateException("the survivors in " + region + " did not take over within " + TAKE_OVER_TIMEOUT.toSeconds()
                + " s: they hold " + held(survivors) + " of " + before);
    }

    private List<Instance> instancesOf(String region) {
        return instanceUrls.keySet().stream().filter(i -> i.region().equals(region)).toList();
    }

    /** Each lease gauge summed over {@code instances}, from their Prometheus endpoints; an instance that does not answer counts 0. */
    private Map<String, Double> held(List<Instance> instances) {
        Map<String, Double> sums = new LinkedHashMap<>();
        LEASE_GAUGES.forEach(g -> sums.put(g, 0.0));
        for (Instance instance : instances) {
            try {
                HttpResponse<String> r = readiness.send(HttpRequest.newBuilder(URI.create(instanceUrls.get(instance) + "/actuator/prometheus"))
                        .header("Authorization", BearerTokens.operator()).timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    LEASE_GAUGES.forEach(g -> sums.merge(g, PrometheusHistogram.counter(r.body(), g, instance.region()), Double::sum));
                }
            } catch (IOException notAnswering) {
                // counts nothing
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return sums;
    }

    /** Starts the region's broker (its first instance) again, as it was started first, and waits until it is ready: the time that took. */
    public Duration restart(String region) {
        Instance first = new Instance(region, 1);
        synchronized (this) {
            if (processes.get(first).isAlive()) {
                throw new IllegalStateException("broker " + first.name() + " is still running");
            }
            try {
                readyAt.remove(first);
                startedAt.put(first, System.nanoTime());
                processes.put(first, launchers.get(first).start());
            } catch (IOException e) {
                throw new IllegalStateException("broker " + first.name() + " did not start again: " + e.getMessage(), e);
            }
        }
        awaitReady(first, READY_TIMEOUT);
        progress.step("broker " + first.name() + " ready again in " + startTime(first));
        return Duration.ofNanos(readyAt.get(first) - startedAt.get(first));
    }

    /** Steps the region's broker clock to {@code offset} from the host's (only a broker started on a steppable clock). */
    public void stepClock(String region, Duration offset) {
        clocks.step(region, offset);
    }

    /** Every broker process id, by instance name ({@code us-east-1}, {@code us-east-1 #2}), in region order. */
    public Map<String, Long> pids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        instanceUrls.keySet().forEach(instance -> pids.put(instance.name(), processes.get(instance).pid()));
        return pids;
    }

    public String url(String region) {
        return urls.get(region);
    }

    /** Each region's broker base URL (its one address, whatever the number of instances behind it), in region order. */
    public Map<String, String> urls() {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(urls));
    }

    /** Each region's instances' own base URLs, in region order: where each one's metrics are read. */
    public Map<String, List<String>> instanceUrls() {
        Map<String, List<String>> byRegion = new LinkedHashMap<>();
        instanceUrls.forEach((instance, url) -> byRegion.computeIfAbsent(instance.region(), r -> new ArrayList<>()).add(url));
        byRegion.replaceAll((region, list) -> List.copyOf(list));
        return java.util.Collections.unmodifiableMap(byRegion);
    }

    private boolean isReady(Instance instance) {
        try {
            HttpResponse<String> r = readiness.send(HttpRequest.newBuilder(URI.create(instanceUrls.get(instance) + "/actuator/health/readiness"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Tells each front which of its instances are ready, every 250 ms, as a load balancer's health check does: ready at the
     * first answer UP, out after {@value #FAILURES_TO_LEAVE} checks in a row that fail (Kubernetes' readiness probe of
     * {@code k8s/}: {@code failureThreshold: 2}), so one slow answer on a loaded machine does not take an instance out.
     * Reports each change.
     */
    private void watchReadiness() {
        Map<Instance, Integer> failures = new LinkedHashMap<>();
        while (!stopped) {
            fronts.forEach((region, front) -> instancesOf(region).forEach(instance -> {
                int failed = isReady(instance) ? 0 : failures.getOrDefault(instance, 0) + 1;
                failures.put(instance, failed);
                if (failed == 0 || failed >= FAILURES_TO_LEAVE) {
                    tell(front, instance, failed == 0);
                }
            }));
            sleep(250);
        }
    }

    private void tell(RegionFront front, Instance instance, boolean ready) {
        URI uri = URI.create(instanceUrls.get(instance));
        front.ready(new InetSocketAddress(uri.getHost(), uri.getPort()), ready);
        Boolean before = frontSees.put(instance, ready);
        if (before != null && before != ready && !stopped) {
            progress.step("front " + instance.region() + ": broker " + instance.name() + (ready ? " ready, taking connections again" : " NOT READY, no new connections"));
        }
    }

    private void awaitReady(Instance instance, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!processes.get(instance).isAlive()) {
                throw new IllegalStateException("broker " + instance.name() + " exited");
            }
            if (isReady(instance)) {
                if (readyAt.putIfAbsent(instance, System.nanoTime()) == null) {
                    cpuAtReady.put(instance, cpuSoFar(instance));
                }
                RegionFront front = fronts.get(instance.region());
                if (front != null) {
                    tell(front, instance, true);
                }
                return;
            }
            sleep(200);
        }
        throw new IllegalStateException("broker " + instance.name() + " not ready within " + timeout);
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
        stopped = true;
        fronts.values().forEach(RegionFront::close);
        processes.values().forEach(Process::destroy);
        for (Map.Entry<Instance, Process> broker : processes.entrySet()) {
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
