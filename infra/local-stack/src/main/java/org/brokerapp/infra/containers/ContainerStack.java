package org.brokerapp.infra.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.PortBinding;
import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.host.ServerLibraries;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.ElasticsearchNode;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.servers.KafkaBroker;
import org.brokerapp.infra.servers.KafkaCredentials;
import org.brokerapp.infra.stack.ClusterProbe;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.infra.stack.Preflight;
import org.brokerapp.infra.stack.Readiness;
import org.brokerapp.infra.stack.StackContainers;
import org.brokerapp.infra.stack.StackLayout;
import org.brokerapp.infra.stack.StackSettings;
import org.brokerapp.regions.KafkaCredential;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * The stack in containers, through Testcontainers, wherever a Docker API answers (the {@code docker} Maven profile;
 * {@code infra/bin/podman-testcontainers} proves it on podman): a container per Cassandra node, the nodes of every
 * region's DC forming one multi-DC cluster, a Kafka container per region and, when search is asked for, an Elasticsearch
 * container per region. Kafka requires the same SCRAM logins and ACLs as the processes' stack ({@link KafkaAccess}, the
 * passwords in the work directory's {@link KafkaCredentials} files). No WAN emulation, no metrics (Prometheus), no
 * single-server outages, no TLS.
 *
 * <p>Addresses: each server's port is published on this machine at the very address the {@link AddressPlan} gives it
 * (a Cassandra node's CQL at {@code 127.A.r.1n:9042}, a Kafka at {@code 127.A.r.2:9092}, an Elasticsearch node's HTTP at
 * its address's port 9200), and each server announces
 * that address to its clients ({@code broadcast_rpc_address}, {@code advertised.listeners}), so tests and brokers see
 * the same layout as with the processes' stack, and the driver's peer discovery hands out reachable addresses. Inside,
 * the containers share a network of their own ({@link AddressPlan#containerSubnet()}); the Cassandra nodes gossip
 * there at fixed addresses (their {@link CassandraNode#wanAddress()}). JMX is published on 127.0.0.1 at each node's
 * port, so {@link ClusterProbe} asks the nodes what it asks the processes.
 *
 * <p>Images ({@code infra/images}): {@code localhost/brokerapp/cassandra:<version>},
 * {@code localhost/brokerapp/kafka:<version>} and {@code localhost/brokerapp/elasticsearch:<version>}, Debian with Java 17 and the very jars the build resolved; they are
 * built locally (no registry needed) by {@code infra/bin/podman-testcontainers}, or by hand with {@code docker build}.
 */
public final class ContainerStack {

    static final String IMAGE_PREFIX = "localhost/brokerapp/";
    /** Where a server's files live inside its container. */
    private static final Path HOME = Path.of("/var/lib/brokerapp");
    private static final String LABEL = "org.brokerapp.stack-instance";
    /**
     * Far longer than the processes' timeouts: on a shared 2-core machine (load average 60-120) a Cassandra container
     * took 150-260 s to log "Startup complete", a Kafka container up to 220 s; alone, both take seconds.
     */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(6);

    private ContainerStack() {
    }

    /** Starts the stack in containers, or fails with a one-line {@link StackException} having removed whatever had started. */
    public static LocalStack start(StackSettings requested, Progress progress) {
        if (requested.tls()) {
            throw new StackException("TLS (--tls, stack.tls) is not supported when the stack runs in containers; run it on processes");
        }
        if (requested.wanEmulation() && requested.cassandra()) {
            progress.warn("WAN emulation is OFF: the stack runs in containers; regions talk at network speed and cannot be cut");
        }
        if (requested.metrics()) {
            progress.warn("metrics are OFF: the stack in containers runs no Prometheus and no JMX exporters");
        }
        StackLayout layout = StackLayout.inContainers(requested);
        StackSettings settings = layout.settings();
        ServerLibraries libs = ServerLibraries.fromBuild();
        libs.requirePresent();
        requireDocker();
        Preflight.requirePublishedPortsFree(layout);
        LocalStack.prepareWorkDir(settings.workDir(), true, progress);
        // as for processes: the passwords in the work directory, where tests and brokers read them; the containers'
        // Kafka data is new every time, formatted with these
        KafkaCredentials kafkaCredentials = KafkaCredentials.loadOrCreate(settings.workDir(), KafkaAccess.principals(settings.regions().names()));
        progress.step("Kafka passwords in " + kafkaCredentials.dir() + " (one file per principal)");

        String networkName = "brokerapp-stack-" + settings.instance();
        Network network = Network.builder().createNetworkCmdModifier(cmd -> cmd.withName(networkName)
                .withLabels(Map.of(LABEL, Integer.toString(settings.instance())))
                .withIpam(new com.github.dockerjava.api.model.Network.Ipam()
                        .withConfig(new com.github.dockerjava.api.model.Network.Ipam.Config().withSubnet(settings.addresses().containerSubnet()))))
                .build();
        Running running = new Running(layout, libs, networkName, network);
        try {
            String cassandraImage = IMAGE_PREFIX + "cassandra:" + libs.cassandraVersion();
            String kafkaImage = IMAGE_PREFIX + "kafka:" + libs.kafkaVersion();
            progress.step("starting containers on network " + networkName + " (" + settings.addresses().containerSubnet() + ") from "
                    + (settings.cassandra() ? cassandraImage + " and " : "") + kafkaImage);
            List<GenericContainer<?>> kafka = layout.kafka().stream().<GenericContainer<?>>map(b -> kafka(b, kafkaImage, network, settings, kafkaCredentials)).toList();
            // The Kafkas and the first seed start together, then every other node one at a time, the other DCs' seeds
            // included: two seeds started together on a loaded machine each took the other, silent for more than the
            // 1 s ring delay, for a fat client, dropped it from gossip and formed two one-DC clusters (measured here).
            List<CompletableFuture<Void>> first = new ArrayList<>();
            for (int i = 0; i < kafka.size(); i++) {
                first.add(startAsync(running, kafka.get(i), layout.kafka().get(i).name(), progress));
            }
            List<CassandraNode> nodes = layout.cassandra();
            if (!nodes.isEmpty()) {
                first.add(startAsync(running, cassandra(nodes.get(0), cassandraImage, libs, network, settings.instance()), nodes.get(0).name() + " (seed)", progress));
            }
            join(first);
            for (CassandraNode node : nodes.stream().skip(1).toList()) {
                start(running, cassandra(node, cassandraImage, libs, network, settings.instance()), node.name() + (node.isSeed() ? " (seed)" : ""), progress);
            }

            KafkaCredential admin = kafkaCredentials.of(KafkaAccess.ADMIN);
            for (KafkaBroker broker : layout.kafka()) {
                Readiness.awaitKafkaAccepting(broker, admin, Optional.empty());
                Readiness.grantAccess(broker, admin, Optional.empty());
                progress.step(broker.name() + " accepts SCRAM logins on " + broker.bootstrapServers() + ", ACLs granted");
            }
            if (settings.cassandra()) {
                progress.step("waiting until every Cassandra node sees every other up and normal (UN) in its DC");
                ClusterProbe.awaitAllUpNormal(layout.cassandra(), LocalStack.CLUSTER_READY_TIMEOUT);
                for (String region : settings.regions().names()) {
                    Readiness.awaitCqlAnswers(layout, Optional.empty(), Optional.empty(), region);
                    progress.step("CQL answers in DC " + settings.regions().region(region).datacenter());
                }
            }
            if (settings.search()) {
                running.startSearch(progress);
            }
            return LocalStack.inContainers(layout, running, progress.elapsed(), libs, kafkaCredentials);
        } catch (RuntimeException e) {
            progress.step("start failed, removing the containers that had started");
            running.close();
            throw e;
        }
    }

    private static void requireDocker() {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new StackException("the docker profile needs a Docker API, and none answers (set DOCKER_HOST; on a machine without Docker,"
                    + " infra/bin/podman-testcontainers runs the tests on podman)");
        }
    }

    private static GenericContainer<?> kafka(KafkaBroker broker, String image, Network network, StackSettings settings, KafkaCredentials credentials) {
        int instance = settings.instance();
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image))
                .withNetwork(network)
                .withLabel(LABEL, Integer.toString(instance))
                .withCommand(broker.containerCommand(HOME, credentials).toArray(String[]::new))
                .withCreateContainerCmdModifier(named(containerName("kafka-" + broker.region().name(), instance), instance,
                        PortBinding.parse(broker.bootstrapServers() + ":" + AddressPlan.KAFKA_PORT))
                        .andThen(cmd -> cmd.withIpv4Address(settings.addresses().kafkaContainerAddress(regionNumber(settings, broker.region())))))
                .withLogConsumer(appendingTo(broker.serverLog()))
                .waitingFor(ReadyOrExited.logged(KafkaBroker.READY_MARKER).withStartupTimeout(START_TIMEOUT));
        copyInto(container, broker.containerFiles(HOME, credentials.of(KafkaAccess.ADMIN).password()));
        return container;
    }

    private static GenericContainer<?> cassandra(CassandraNode node, String image, ServerLibraries libs, Network network, int instance) {
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image))
                .withNetwork(network)
                .withLabel(LABEL, Integer.toString(instance))
                .withCommand(node.containerCommand(libs, HOME).toArray(String[]::new))
                .withCreateContainerCmdModifier(named(containerName("cassandra-" + node.region().name() + "-" + node.node(), instance), instance,
                        PortBinding.parse(node.address() + ":" + AddressPlan.CQL_PORT + ":" + AddressPlan.CQL_PORT),
                        PortBinding.parse("127.0.0.1:" + node.jmxPort() + ":" + node.jmxPort()))
                        .andThen(cmd -> cmd.withIpv4Address(node.wanAddress())))
                .withLogConsumer(appendingTo(node.systemLog()))
                .waitingFor(ReadyOrExited.logged(CassandraNode.READY_MARKER).withStartupTimeout(START_TIMEOUT));
        copyInto(container, node.containerFiles(HOME));
        return container;
    }

    private static GenericContainer<?> elasticsearch(ElasticsearchNode node, String image, Network network, StackSettings settings) {
        int instance = settings.instance();
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image))
                .withNetwork(network)
                .withLabel(LABEL, Integer.toString(instance))
                .withCommand(node.containerCommand(HOME).toArray(String[]::new))
                .withCreateContainerCmdModifier(named(containerName("elasticsearch-" + node.region().name(), instance), instance,
                        PortBinding.parse(node.address() + ":" + AddressPlan.ELASTICSEARCH_HTTP_PORT + ":" + AddressPlan.ELASTICSEARCH_HTTP_PORT))
                        .andThen(cmd -> cmd.withIpv4Address(settings.addresses().elasticsearchContainerAddress(regionNumber(settings, node.region())))))
                .withLogConsumer(appendingTo(node.serverLog()))
                .waitingFor(new ReadyOrExited("its cluster health to be yellow or green at " + node.url(), logs -> node.answers())
                        .withStartupTimeout(START_TIMEOUT));
        copyInto(container, node.containerFiles(HOME));
        return container;
    }

    /** Region numbers are 1-based, in the regions model's order (as the address plan counts them). */
    private static int regionNumber(StackSettings settings, org.brokerapp.regions.Region region) {
        return settings.regions().names().indexOf(region.name()) + 1;
    }

    private static String containerName(String server, int instance) {
        return "brokerapp-" + instance + "-" + server;
    }

    /** A fixed name, and ports published at fixed addresses: Testcontainers' own mapping is random. */
    private static Consumer<CreateContainerCmd> named(String name, int instance, PortBinding... ports) {
        return cmd -> {
            cmd.withName(name);
            cmd.getHostConfig().withPortBindings(ports);
        };
    }

    private static void copyInto(GenericContainer<?> container, Map<Path, String> files) {
        files.forEach((path, content) -> container.withCopyToContainer(Transferable.of(content), path.toString()));
    }

    /** The container's output goes where the processes' stack writes that server's log, so both modes log to one place. */
    private static Consumer<OutputFrame> appendingTo(Path log) {
        try {
            Files.createDirectories(log.getParent());
            Writer writer = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            return frame -> {
                try {
                    if (frame.getType() == OutputFrame.OutputType.END) {
                        writer.close();
                    } else {
                        writer.write(frame.getUtf8String());
                        writer.flush();
                    }
                } catch (IOException e) {
                    // the log is for people; a closed or full file must not fail the stack
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CompletableFuture<Void> startAsync(Running running, GenericContainer<?> container, String name, Progress progress) {
        return CompletableFuture.runAsync(() -> start(running, container, name, progress));
    }

    private static void start(Running running, GenericContainer<?> container, String name, Progress progress) {
        running.add(container);
        progress.step("starting " + name + " in a container");
        try {
            container.start();
        } catch (RuntimeException e) {
            throw new StackException(name + " did not start in its container: " + rootMessage(e), e);
        }
        progress.step(name + " started (container " + container.getContainerName().replaceFirst("^/", "") + ")");
    }

    private static void join(List<CompletableFuture<Void>> starts) {
        try {
            CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.toString();
    }

    /**
     * Ready once {@code ready} holds (given the container's log so far); failed at once when the container exits first
     * (Testcontainers' own waits sit out the whole start timeout), with the last line its server wrote.
     */
    private static final class ReadyOrExited extends AbstractWaitStrategy {

        private final String what;
        private final java.util.function.Predicate<String> ready;

        ReadyOrExited(String what, java.util.function.Predicate<String> ready) {
            this.what = what;
            this.ready = ready;
        }

        static ReadyOrExited logged(String marker) {
            return new ReadyOrExited("its server to log '" + marker + "'", logs -> logs.contains(marker));
        }

        @Override
        protected void waitUntilReady() {
            long deadline = System.nanoTime() + startupTimeout.toNanos();
            while (true) {
                String logs = waitStrategyTarget.getLogs();
                if (ready.test(logs)) {
                    return;
                }
                var state = waitStrategyTarget.getCurrentContainerInfo().getState();
                if (!Boolean.TRUE.equals(state.getRunning())) {
                    throw new ContainerLaunchException("the container exited (code " + state.getExitCodeLong() + ") while waiting for " + what
                            + "; its last line: " + lastLine(logs));
                }
                if (System.nanoTime() > deadline) {
                    throw new ContainerLaunchException("waited " + startupTimeout.toSeconds() + " s for " + what + "; its last line: " + lastLine(logs));
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ContainerLaunchException("interrupted");
                }
            }
        }

        private static String lastLine(String logs) {
            String[] lines = logs.strip().split("\\R");
            return lines.length == 0 || lines[lines.length - 1].isBlank() ? "(none)" : lines[lines.length - 1];
        }
    }

    /** The containers started so far and their network: closing removes them all (in parallel), then the network. */
    private static final class Running implements StackContainers {

        private final StackLayout layout;
        private final ServerLibraries libs;
        private final String networkName;
        private final Network network;
        private final List<GenericContainer<?>> containers = Collections.synchronizedList(new ArrayList<>());
        private final List<GenericContainer<?>> search = new ArrayList<>();

        Running(StackLayout layout, ServerLibraries libs, String networkName, Network network) {
            this.layout = layout;
            this.libs = libs;
            this.networkName = networkName;
            this.network = network;
        }

        void add(GenericContainer<?> container) {
            containers.add(container);
        }

        /** An Elasticsearch container per region, started together; each ready once its cluster is yellow or green. */
        @Override
        public synchronized void startSearch(Progress progress) {
            if (searchRunning()) {
                return;
            }
            libs.requireElasticsearchPresent();
            int instance = layout.settings().instance();
            String image = IMAGE_PREFIX + "elasticsearch:" + libs.elasticsearchVersion();
            for (ElasticsearchNode node : layout.elasticsearch()) {
                Preflight.requireFree(new java.net.InetSocketAddress(node.address(), AddressPlan.ELASTICSEARCH_HTTP_PORT), instance);
            }
            List<CompletableFuture<Void>> starts = new ArrayList<>();
            for (ElasticsearchNode node : layout.elasticsearch()) {
                GenericContainer<?> container = elasticsearch(node, image, network, layout.settings());
                search.add(container);
                starts.add(startAsync(this, container, node.name(), progress));
            }
            join(starts);
            for (ElasticsearchNode node : layout.elasticsearch()) {
                progress.step(node.name() + " answers at " + node.url() + " (cluster " + node.clusterName() + " yellow or green)");
            }
        }

        @Override
        public synchronized boolean searchRunning() {
            return !search.isEmpty() && search.stream().allMatch(GenericContainer::isRunning);
        }

        @Override
        public String describe() {
            return containers.size() + " containers on network " + networkName + " (Docker API at "
                    + DockerClientFactory.instance().getTransportConfig().getDockerHost() + ")";
        }

        @Override
        public synchronized void close() {
            List<GenericContainer<?>> all;
            synchronized (containers) {
                all = List.copyOf(containers);
                containers.clear();
            }
            search.clear();
            CompletableFuture.allOf(all.stream().map(c -> CompletableFuture.runAsync(c::stop)).toArray(CompletableFuture[]::new)).join();
            network.close();
        }
    }
}
