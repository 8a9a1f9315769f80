package org.brokerapp.infra.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.host.ServerJava;
import org.brokerapp.infra.host.ServerLibraries;
import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.CqlRoles;
import org.brokerapp.infra.servers.ElasticsearchNode;
import org.brokerapp.infra.servers.FillableDisk;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.servers.KafkaBroker;
import org.brokerapp.infra.servers.KafkaCredentials;
import org.brokerapp.infra.tls.LocalCertificates;
import org.brokerapp.infra.tls.StackTls;
import org.brokerapp.infra.wan.NoWanEmulation;
import org.brokerapp.infra.wan.ToxiproxyWan;
import org.brokerapp.infra.wan.WanEmulator;
import org.brokerapp.infra.wan.WanEmulatorInstall;
import org.brokerapp.regions.CqlLogin;
import org.brokerapp.regions.KafkaCredential;

/**
 * The stack's start as processes on this machine, in its order: WAN emulator, Kafka beside the Cassandra seeds, the
 * other nodes one at a time, Elasticsearch, then readiness of each ({@link Readiness}) and Prometheus.
 */
final class NativeStart {

    private NativeStart() {
    }

    /** Starts the stack, or fails with a one-line {@link StackException} having stopped whatever had started. */
    static LocalStack start(StackSettings requested, boolean clean, String requestedArgs, Progress progress) {
        StackSettings settings = requested;
        String settingsArgs = requestedArgs;
        // asked for WAN emulation, the stack runs with it or not at all: built on first use, or a one-line reason
        Optional<Path> toxiproxy = settings.wanEmulation() ? Optional.of(WanEmulatorInstall.findOrBuild(progress)) : Optional.empty();
        if (!settings.wanEmulation() && settings.cassandra()) {
            progress.warn("WAN emulation is OFF (--no-wan): regions talk at loopback speed and cannot be cut");
        }
        Optional<Path> prometheus = settings.metrics() ? PrometheusServer.findBinary() : Optional.empty();
        if (settings.metrics() && prometheus.isEmpty()) {
            progress.warn("prometheus was not found (install it with infra/bin/install-ops-tools, set " + PrometheusServer.BINARY_ENV
                    + " or pass --no-metrics): the stack runs WITHOUT metrics, rules and dashboards");
            settings = settings.withMetrics(false);
            settingsArgs = settingsArgs + " --no-metrics";
        }
        StackLayout layout = StackLayout.of(settings);
        ServerLibraries libs = ServerLibraries.fromBuild();
        libs.requirePresent();
        if (settings.search()) {
            libs.requireElasticsearchPresent();
        }
        Path java = ServerJava.find();
        Preflight.requirePortsFree(layout);
        LocalStack.prepareWorkDir(settings.workDir(), clean, progress);
        KafkaCredentials kafkaCredentials = KafkaCredentials.loadOrCreate(settings.workDir(), KafkaAccess.principals(settings.regions().names()));
        if (kafkaCredentials.created()) {
            progress.step("Kafka passwords generated in " + kafkaCredentials.dir() + " (one file per principal; Kafka data formatted anew)");
        }
        Optional<StackTls> tls = settings.tls() ? Optional.of(issueCertificates(layout, progress)) : Optional.empty();
        // the stack's TLS comes with logins for CQL, as Terraform's nodes take only logins
        Optional<CqlRoles> cqlRoles = settings.tls() && settings.cassandra() ? Optional.of(CqlRoles.loadOrCreate(settings.workDir())) : Optional.empty();
        Optional<CqlLogin> stackLogin = cqlRoles.map(r -> r.login(CqlRoles.STACK));

        List<ServerProcess> started = Collections.synchronizedList(new ArrayList<>());
        Map<String, FillableDisk> fillableDisks = new LinkedHashMap<>();
        Thread emergencyStop = new Thread(() -> {
            started.forEach(p -> p.stop(LocalStack.STOP_GRACE));
            LocalStack.unmount(fillableDisks.values());
        }, "local-stack-emergency-stop");
        Runtime.getRuntime().addShutdownHook(emergencyStop);
        Optional<WanStateExporter> wanExporter = Optional.empty();
        try {
            WanEmulator wan = toxiproxy.isPresent() ? startWan(toxiproxy.get(), layout, progress) : new NoWanEmulation("the stack runs without WAN emulation (--no-wan)");
            wan.process().ifPresent(started::add);
            new StackState(ProcessHandle.current().pid(), List.of(), settingsArgs).write(settings.workDir());

            // each Kafka's storage format and start (JVMs of several seconds) run beside the Cassandra seeds' start,
            // which is the long way: one node after another
            boolean metrics = settings.metrics();
            List<CompletableFuture<Void>> kafkaStarts = layout.kafka().stream().map(broker -> CompletableFuture.runAsync(() -> {
                started.add(broker.start(java, libs, metrics, kafkaCredentials, tls, broker == layout.kafka().get(0)));
                progress.step("starting " + broker.name() + " on " + broker.bootstrapServers());
            })).toList();
            if (settings.search()) {
                for (ElasticsearchNode node : layout.elasticsearch()) {
                    started.add(node.start(java, libs));
                    progress.step("starting " + node.name() + " on " + node.url() + " (heap " + node.heapMb() + " MB)");
                }
            }
            settings.fillableDisks().forEach((region, disk) -> {
                CassandraNode node = layout.drillableCassandraNode(region);
                fillableDisks.put(node.name(), FillableDisk.mount(node.dir().resolve(disk.directory()), disk));
                progress.step(node.name() + " keeps its " + disk.directory() + " directory on a " + FillableDisk.SIZE_MB
                        + " MB filesystem of its own (for a disk drill)");
            });
            try {
                startCassandra(layout, java, libs, started, tls, progress);
            } finally {
                // whatever failed, nothing may still be starting when what has started is stopped
                kafkaStarts.forEach(start -> start.exceptionally(failed -> null).join());
            }
            kafkaStarts.forEach(NativeStart::rethrowFailure);
            for (KafkaBroker broker : layout.kafka()) {
                processOf(started, broker.name()).awaitLogLine(broker.serverLog(), KafkaBroker.READY_MARKER, KafkaBroker.START_TIMEOUT);
                KafkaCredential admin = kafkaCredentials.of(KafkaAccess.ADMIN);
                Readiness.awaitKafkaAccepting(broker, admin, tls.map(StackTls::kafkaTrust));
                Readiness.grantAccess(broker, admin, tls.map(StackTls::kafkaTrust));
                progress.step(broker.name() + " accepts clients (SASL/SCRAM" + (tls.isPresent() ? " over TLS" : "") + ", "
                        + KafkaAccess.grants(broker.region().name()).size() + " ACLs)");
            }
            if (settings.search()) {
                awaitSearch(layout, started, progress);
            }
            if (settings.cassandra()) {
                progress.step("waiting until every Cassandra node sees every other up and normal (UN) in its DC");
                ClusterProbe.awaitAllUpNormal(layout.cassandra(), LocalStack.CLUSTER_READY_TIMEOUT);
            }
            if (cqlRoles.isPresent()) {
                String first = settings.regions().names().get(0);
                CassandraAuth.setUp(layout, cqlRoles.get(), login -> Readiness.session(layout, tls, Optional.of(login), first), progress);
            }
            for (String region : settings.cassandra() ? settings.regions().names() : List.<String>of()) {
                Readiness.awaitCqlAnswers(layout, tls, stackLogin, region);
                progress.step("CQL answers in DC " + settings.regions().region(region).datacenter());
            }

            if (prometheus.isPresent()) {
                wanExporter = Optional.of(WanStateExporter.start(layout, wan));
                started.add(PrometheusServer.start(prometheus.get(), layout, libs));
                progress.step("Prometheus up at " + PrometheusServer.url(settings.addresses()) + ", scraping every broker address, Cassandra node, Kafka and the WAN");
            }

            LocalStack stack = new LocalStack(layout, wan, List.copyOf(started), Optional.empty(), progress.elapsed(), settingsArgs, libs, java,
                    wanExporter, kafkaCredentials, tls, cqlRoles, fillableDisks);
            if (tls.isPresent()) {
                stack.writeBrokerTlsFiles();
            }
            return stack.serving();
        } catch (RuntimeException e) {
            wanExporter.ifPresent(WanStateExporter::close);
            if (!started.isEmpty()) {
                progress.step("start failed, stopping what had started");
                started.forEach(p -> p.stop(LocalStack.STOP_GRACE));
            }
            LocalStack.unmount(fillableDisks.values());
            StackState.delete(settings.workDir());
            throw e;
        } finally {
            Runtime.getRuntime().removeShutdownHook(emergencyStop);
        }
    }

    /** A keystore for every Cassandra node, Kafka and region's broker address, from the stack's CA (made on first use). */
    private static StackTls issueCertificates(StackLayout layout, Progress progress) {
        AddressPlan plan = layout.settings().addresses();
        Map<String, List<String>> servers = new LinkedHashMap<>();
        for (CassandraNode node : layout.cassandra()) {
            servers.put(node.tlsName(), List.of(node.address(), node.wanAddress()).stream().distinct().toList());
        }
        for (KafkaBroker broker : layout.kafka()) {
            servers.put(broker.tlsName(), List.of(broker.address()));
        }
        List<String> regions = layout.settings().regions().names();
        for (int r = 1; r <= regions.size(); r++) {
            servers.put(LocalStack.brokerTlsName(regions.get(r - 1)), List.of(plan.brokerAddress(r), plan.brokerWanAddress(r)));
        }
        StackTls tls = LocalCertificates.issue(layout.settings().workDir().resolve(StackTls.DIRECTORY), servers, Instant.now());
        progress.step("TLS on: certificates for " + servers.size() + " servers from the stack's CA " + tls.caCertificate());
        return tls;
    }

    static void awaitSearch(StackLayout layout, List<ServerProcess> started, Progress progress) {
        for (ElasticsearchNode node : layout.elasticsearch()) {
            node.awaitReady(processOf(started, node.name()));
            progress.step(node.name() + " answers (cluster " + node.clusterName() + " yellow or green)");
        }
    }

    private static WanEmulator startWan(Path binary, StackLayout layout, Progress progress) {
        StackSettings settings = layout.settings();
        ToxiproxyWan wan = ToxiproxyWan.start(binary, settings.addresses(), settings.workDir(), settings.regions().names());
        for (CassandraNode node : layout.cassandra()) {
            wan.route(WanEmulator.CASSANDRA_ROUTE + node.node(), node.region().name(), node.wanAddress() + ":" + AddressPlan.STORAGE_PORT,
                    node.address() + ":" + AddressPlan.STORAGE_PORT, layout.oneWayLatencyInto(node.region().name()));
        }
        AddressPlan plan = settings.addresses();
        List<String> regions = settings.regions().names();
        for (int r = 1; r <= regions.size(); r++) {
            // brokers call each other over HTTP: request and answer share one connection, so both directions are delayed
            Duration into = layout.oneWayLatencyInto(regions.get(r - 1));
            wan.routeRequestResponse("broker", regions.get(r - 1), plan.brokerWanAddress(r) + ":" + AddressPlan.BROKER_PORT,
                    plan.brokerAddress(r) + ":" + AddressPlan.BROKER_PORT, into, into);
            // the same route to an echo, for the load harness's bare round trip (nothing listens unless it runs)
            wan.routeRequestResponse("echo", regions.get(r - 1), plan.brokerWanAddress(r) + ":" + AddressPlan.WAN_ECHO_PORT,
                    plan.brokerAddress(r) + ":" + AddressPlan.WAN_ECHO_PORT, into, into);
        }
        if (!layout.latencyIsExact()) {
            progress.warn("toxiproxy delays by destination: with these regions each destination gets the MEAN of the delays configured towards it");
        }
        progress.step("WAN emulator up (toxiproxy " + settings.addresses().wanControlAddress() + ":" + settings.addresses().wanControlPort()
                + "), cross-region traffic delayed as configured");
        return wan;
    }

    /** Seeds (one per DC) start together; the others one at a time, as parallel joins lose gossip races. */
    private static void startCassandra(StackLayout layout, Path java, ServerLibraries libs, List<ServerProcess> started,
                                       Optional<StackTls> tls, Progress progress) {
        List<CassandraNode> seeds = layout.cassandra().stream().filter(CassandraNode::isSeed).toList();
        for (CassandraNode seed : seeds) {
            // the first node records the class data archive the others map from the next start on
            started.add(seed.start(java, libs, layout.settings().metrics(), tls, seed == seeds.get(0)));
            progress.step("starting " + seed.name() + " (seed) on " + seed.address());
        }
        for (CassandraNode seed : seeds) {
            processOf(started, seed.name()).awaitLogLine(seed.systemLog(), CassandraNode.READY_MARKER, CassandraNode.START_TIMEOUT);
            progress.step(seed.name() + " started");
        }
        for (CassandraNode node : layout.cassandra()) {
            if (!node.isSeed()) {
                ServerProcess process = node.start(java, libs, layout.settings().metrics(), tls, false);
                started.add(process);
                progress.step("starting " + node.name() + " on " + node.address());
                process.awaitLogLine(node.systemLog(), CassandraNode.READY_MARKER, CassandraNode.START_TIMEOUT);
                progress.step(node.name() + " started");
            }
        }
    }

    private static void rethrowFailure(CompletableFuture<Void> done) {
        try {
            done.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    private static ServerProcess processOf(List<ServerProcess> processes, String name) {
        synchronized (processes) {
            return processes.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
        }
    }
}
