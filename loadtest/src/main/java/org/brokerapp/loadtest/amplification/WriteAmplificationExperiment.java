package org.brokerapp.loadtest.amplification;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.brokerapp.infra.cli.CliConventions;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.infra.stack.StackSettings;
import org.brokerapp.loadtest.deployment.BrokerProcesses;
import org.brokerapp.loadtest.deployment.TicksTopic;
import org.brokerapp.loadtest.measure.BrokerScraper;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.brokerapp.regions.SymbolUniverse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The prototype's write-amplification table, measured: for 1, 2 and 3 DCs (one Cassandra node
 * each) it starts a stack and the brokers, drives a fixed number of real trades in us-east-1, and
 * reads from every node's own metrics what was written where. Then it stops everything.
 *
 * <p>Usage: {@code loadtest/bin/write-amplification --help}.
 */
public final class WriteAmplificationExperiment {

    static final String KEYSPACE = WriteAmplificationProbe.BROKER_KEYSPACE;
    /**
     * The partition writes of one trade by the broker's design, none conditional: the account owner's
     * placement writes the order's ledger row and its open_orders row (one unlogged batch, two
     * partitions); the matcher's fill writes the order's fill cells and deletes the open_orders row.
     */
    static final int TRADE_WRITES = 4;
    private static final int CUSTOMERS = 50;
    private static final int SYMBOLS = 4;

    private final Progress progress;
    private final Path workDir;
    private final Path jar;
    private final int instance;

    private WriteAmplificationExperiment(Progress progress, Path workDir, Path jar, int instance) {
        this.progress = progress;
        this.workDir = workDir;
        this.jar = jar;
        this.instance = instance;
    }

    /** {@code loadtest/bin/write-amplification}: the project's command-line conventions ({@link CliConventions}). */
    @Command(name = "write-amplification", usageHelpAutoWidth = true,
            description = "Rows written per trade with 1, 2 and 3 DCs: a local stack per DC count, real trades, every node's own metrics.",
            exitCodeListHeading = "%\nExit status:%\n", exitCodeList = {"0:measured", "1:a runtime failure", "2:a usage error"})
    static final class Cli implements Callable<Integer> {

        @Mixin
        CliConventions.Help help;

        @Spec
        CommandSpec spec;

        @Option(names = "--dcs", split = ",", paramLabel = "N", description = "the DC counts to measure, one stack each (default: 1,2,3)")
        List<Integer> dcs = List.of(1, 2, 3);

        @Option(names = "--trades", paramLabel = "N", description = "trades measured per DC count (default: 600)")
        int trades = 600;

        @Option(names = "--rate", paramLabel = "PER_S", description = "trades per second (default: 20)")
        double rate = 20;

        @Option(names = "--warmup", paramLabel = "N", description = "trades before the measure, for the JIT and the caches (default: 200)")
        int warmup = 200;

        @Option(names = "--instance", paramLabel = "I", description = "the stack instance: its own loopback addresses (default: 3)")
        int instance = 3;

        @Option(names = "--work-dir", paramLabel = "DIR", description = "where the stacks and the results go (default: loadtest/target/write-amplification)")
        Path workDir = Path.of("loadtest/target/write-amplification");

        @Option(names = "--broker-jar", paramLabel = "FILE", description = "the broker to run (default: the build's)")
        Path brokerJar = Path.of("broker-service/target/broker-service-0.1.0-SNAPSHOT.jar");

        @Override
        public Integer call() throws Exception {
            if (dcs.stream().anyMatch(n -> n < 1) || trades < 1 || rate <= 0 || warmup < 0) {
                throw new ParameterException(spec.commandLine(), "--dcs, --trades and --rate must be positive, --warmup at least 0");
            }
            if (!Files.exists(brokerJar)) {
                throw new IllegalStateException("broker jar " + brokerJar + " not found; build with ./mvnw -q -pl loadtest -am install -DskipTests");
            }
            measure(dcs, trades, rate, warmup, instance, workDir.toAbsolutePath(), brokerJar);
            return 0;
        }
    }

    public static void main(String[] args) {
        System.exit(CliConventions.execute("write-amplification", new Cli(), args));
    }

    private static void measure(List<Integer> dcs, int trades, double rate, int warmup, int instance, Path workDir, Path builtJar) throws Exception {
        Progress progress = new Progress(System.out);
        Files.createDirectories(workDir);
        // a private copy: a rebuild of broker-service during the run must not change the brokers under it
        Path jar = Files.copy(builtJar, workDir.resolve("broker-service.jar"), StandardCopyOption.REPLACE_EXISTING);
        WriteAmplificationExperiment experiment = new WriteAmplificationExperiment(progress, workDir, jar, instance);
        List<WriteAmplification> results = new ArrayList<>();
        for (int datacenters : dcs) {
            Run run = experiment.run(datacenters, warmup, trades, rate);
            WriteAmplification result = run.amplification();
            results.add(result);
            System.out.printf("%n%d DC(s): %,d orders sent, %,d accepted (refused: %s), %,d trades in a %.1f s window, keyspace %s:%n%n%s"
                            + "%nReplica writes per trade, by table:%n%n%s%n",
                    datacenters, trades, run.accepted(), run.errors(), result.trades(), result.interval().toMillis() / 1000.0, result.keyspace(),
                    AmplificationTable.perDc(result), AmplificationTable.perTable(result));
            if (!result.unknownPeers().isEmpty()) {
                progress.warn("traffic to peers outside the deployment left out: " + result.unknownPeers());
            }
        }
        System.out.printf("%nWrite amplification per trade, measured beside theory (%,d trades at %.0f/s, 1 Cassandra node per DC):%n%n%s",
                trades, rate, AmplificationTable.comparison(results, TRADE_WRITES));
    }

    /** One deployment's result, and how many of the orders sent the broker accepted (a refused one still wrote). */
    record Run(WriteAmplification amplification, int accepted, Map<String, Long> errors) {
    }

    private Run run(int datacenters, int warmupTrades, int trades, double rate) throws Exception {
        Path dir = workDir.resolve(datacenters + "-dc");
        Files.createDirectories(dir);
        Path regionsFile = dir.resolve("regions.yaml");
        Files.writeString(regionsFile, Deployments.regionsYaml(datacenters));
        RegionsModel regions = RegionsFile.load(regionsFile);
        progress.step("== " + datacenters + " DC(s): " + regions.names() + ", replication " + regions.networkTopologyReplication());
        StackSettings settings = new StackSettings(regions, dir.resolve("stack"), instance, true, StackSettings.DEFAULT_CASSANDRA_HEAP_MB, true,
                false, StackSettings.DEFAULT_ELASTICSEARCH_HEAP_MB, false, false, java.util.Map.of());
        String stackArgs = "--work-dir " + settings.workDir() + " --instance " + instance + " --regions " + regionsFile + " --no-search --no-metrics";
        try (LocalStack stack = LocalStack.start(settings, true, stackArgs, progress)) {
            for (String region : regions.names()) {
                TicksTopic.ensure(stack.kafkaClientConfig(region, KafkaAccess.ADMIN));
            }
            try (BrokerProcesses brokers = BrokerProcesses.start(stack, jar, dir.resolve("logs"), CUSTOMERS,
                    // the load customers alone: the local profile's demo customers are homed in both default regions, not in every deployment's
                    List.of("--broker.regions-file=" + regionsFile, "--broker.seed-accounts="), progress);
                 TradeDriver driver = new TradeDriver(brokers.url(Deployments.TRADING_REGION),
                         stack.kafkaClientConfig(Deployments.TRADING_REGION, KafkaAccess.FEED), symbols(regions), CUSTOMERS,
                         regions.names().indexOf(Deployments.TRADING_REGION), regions.names().size())) {
                BrokerScraper fills = new BrokerScraper(Map.of(Deployments.TRADING_REGION, brokers.url(Deployments.TRADING_REGION)));
                ClusterMeters meters = ClusterMeters.of(stack, KEYSPACE);

                progress.step("warm-up: " + warmupTrades + " trades over " + CUSTOMERS + " customers (JIT, caches, every customer partition)");
                double filledBefore = fills.scrape(Duration.ofSeconds(30)).totalFills();
                int warmed = driver.trade("warm-" + datacenters, warmupTrades, rate);
                awaitFills(fills, filledBefore + warmed);
                BrokerProcesses.sleep(3_000);

                ClusterSnapshot before = meters.snapshot();
                double fillsAtStart = fills.scrape(Duration.ofSeconds(30)).totalFills();
                progress.step(String.format("measuring: %d trades at %.0f/s", trades, rate));
                int accepted = driver.trade("run-" + datacenters, trades, rate);
                double filled = awaitFills(fills, fillsAtStart + accepted) - fillsAtStart;
                // remote replicas and the fill's asynchronous open_orders delete land after the fill is acknowledged
                BrokerProcesses.sleep(3_000);
                ClusterSnapshot after = meters.snapshot();
                progress.step(String.format("%d accepted, %.0f filled, errors %s", accepted, filled, driver.errors()));
                Map<String, Long> errors = new java.util.TreeMap<>();
                driver.errors().forEach((kind, count) -> errors.put(kind, count.get()));
                Files.writeString(dir.resolve("counters.txt"), AmplificationTable.rawCounters(after.minus(before)));
                return new Run(WriteAmplification.between(before, after, Math.round(filled), regions), accepted, errors);
            }
        }
    }

    private double awaitFills(BrokerScraper fills, double target) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        double now = fills.scrape(Duration.ofSeconds(30)).totalFills();
        while (now < target && System.nanoTime() < deadline) {
            BrokerProcesses.sleep(250);
            now = fills.scrape(Duration.ofSeconds(30)).totalFills();
        }
        if (now < target) {
            progress.warn(String.format("only %.0f of %.0f fills after 60 s", now, target));
        }
        return now;
    }

    private static List<Listing> symbols(RegionsModel regions) {
        SymbolUniverse universe = SymbolUniverse.loadDefault();
        return universe.homedIn(regions.region(Deployments.TRADING_REGION)).stream()
                .filter(l -> l.exchange().equals(Deployments.TRADED_EXCHANGE)).limit(SYMBOLS).toList();
    }
}
