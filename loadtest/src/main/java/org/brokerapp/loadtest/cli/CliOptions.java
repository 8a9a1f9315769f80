package org.brokerapp.loadtest.cli;

import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import org.brokerapp.loadtest.deployment.CqlEndpoint;
import org.brokerapp.loadtest.drill.Drill;
import org.brokerapp.loadtest.report.ResultsDirectory;
import org.brokerapp.loadtest.sla.SlaPlan;
import org.brokerapp.loadtest.workload.OrderMix;
import org.brokerapp.loadtest.workload.Preset;
import org.brokerapp.loadtest.workload.WorkloadSpec;
import org.brokerapp.regions.CaCertificates;
import org.brokerapp.regions.CqlLogin;
import org.brokerapp.regions.DeploymentOutputs;
import org.brokerapp.regions.KafkaTrust;
import org.brokerapp.regions.Region;
import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.brokerapp.regions.SecretFiles;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The command line of {@code loadtest/bin/loadtest}: a preset, then overrides. Every mistake is a
 * {@link UsageException} whose message is one line naming the option.
 */
public final class CliOptions {

    public static final int DEFAULT_INSTANCE = 5;

    static final Set<String> FLAGS = Set.of("help", "sla-search", "no-floor", "no-check", "tls");
    static final Set<String> REPEATABLE = Set.of("broker", "kafka", "cql", "broker-arg");
    static final Set<String> VALUED = Set.of("preset", "instance", "work-dir", "broker-jar", "broker-arg", "regions", "broker", "kafka", "cql", "cql-login", "target-terraform",
            "orders", "ticks", "mix", "market", "buy-share", "marketable", "cross-region", "symbols", "customers", "ramp-up", "warm-up",
            "warmup", "duration", "drain", "floor-rate", "prime-shares", "seed", "sla-ms", "sla-start", "sla-step", "sla-factor",
            "sla-max-steps", "results", "progress-every", "opening-cash", "idle-baseline", "drill", "drill-region", "drill-at", "drill-length",
            "nodes-per-dc", "brokers-per-region");

    public static final String USAGE = """
            usage: loadtest/bin/loadtest [--preset demo|smoke|prototype|small|medium] [options]

            Loads the brokers open-model (every operation at its intended time, latency from that time), times a bare
            LOCAL_QUORUM write beside them, checks every ledger afterwards and writes summary.md, results.json and
            report.html. With no target options it starts the local stack (instance 5) and a broker per region, and
            stops them at the end (also on Ctrl-C).

            presets (every value below can be overridden):
              demo       %s
              smoke      %s
              prototype  %s
              small      %s
              medium     %s   (default: small)

            target:
              --instance N            local stack instance to start (default 5; tests use 1)
              --work-dir DIR          its work directory (default loadtest/target/stack-<instance>, wiped first)
              --nodes-per-dc N        its Cassandra nodes per DC, 1 to 3 (default: the regions model's; RF = min(3, N))
              --brokers-per-region N  broker instances per region, 1 to 4 (default 1); more than one run behind the region's
                                      one address (a TCP front, as a load balancer), sharing its symbols and customers
              --tls                   the stack with TLS on CQL, Kafka and the brokers' HTTP; the harness's own clients
                                      (orders, floor writes, ticks, scrapes) then trust the stack's CA
              --broker-jar FILE       broker-service jar (default broker-service/target/broker-service-0.1.0-SNAPSHOT.jar)
              --broker-arg ARG        extra argument for every broker started, e.g. --broker-arg --broker.matching.open-order-shards=16
              --broker REGION=URL     an existing deployment instead: a region's broker (repeat per region) ...
              --kafka REGION=HOST:PORT  ... its Kafka bootstrap for ticks (repeat per region) ...
              --cql REGION=HOST:PORT[+HOST:PORT]/DC  ... and where the floor writes go (optional; no floor without)
              --cql-login ROLE=FILE   with --cql or --target-terraform: the floor logs in to Cassandra as ROLE, its password
                                      the first line of FILE (Terraform's nodes take only logins, over TLS)
              --target-terraform FILE  an existing deployment from `terraform output -json` of terraform/examples/multi-region
                                (or the local stack's <work-dir>/terraform-outputs.json): every region's broker, Kafka and CQL
              --regions FILE          the regions model (default infra/regions.yaml)

            load:
              --orders N              orders per second, all regions (0: ticks only)
              --ticks N               ticks per second, all regions, split by symbol count
              --mix LIMIT=a,STOP=b,MARKET=c   weights of the order types
              --market SHARE          shortcut: MARKET share 0..1, LIMIT and STOP keep their proportion
              --buy-share SHARE       share of BUY orders (SELLs sell shares bought in a priming phase)
              --marketable SHARE      share of LIMIT/STOP orders the next tick fills (the rest rest far away)
              --cross-region SHARE    share of orders placed outside the symbol's home region
              --symbols REGION=N,...  symbols traded per region
              --customers N           load customers load-1..N (brokers are started with as many)
              --ramp-up S  --warm-up S  --duration S  --drain S   seconds (or 90s, 2m)
              --floor-rate N          bare LOCAL_QUORUM writes per second (default: the preset's, scaled with --orders)
              --no-floor              no floor writes
              --prime-shares N        shares of each traded symbol bought per customer before SELLs (default 1000)
              --seed N                random seed of orders and ticks

            SLA search (steps the load up until p99 ticker-to-fill breaks the SLA; orders, ticks and floor scale together):
              --sla-search            run the search instead of one load level
              --sla-ms MS             the SLA (default 10)
              --sla-start N           first step's orders/s (default --orders)
              --sla-step N            added per step (default: the start rate)  |  --sla-factor F  multiply per step
              --sla-max-steps N       at most this many steps (default 8)

            drill (local target; loadtest/bin/drill NAME runs the demo preset with one):
              --drill broker-kill|kafka-kill|cassandra-kill|disk-full|commitlog-full|region-cut|clock-skew
                                      inject the failure during the measured window:
                                      kill -9 a region's broker, its Kafka or one of its Cassandra nodes (not a seed;
                                      needs --nodes-per-dc 3) and start it again, fill that node's data or commit log disk
                                      (root: a tmpfs is mounted for it), cut a region off the WAN and heal it, or step a region's broker
                                      clock 2 s ahead for the rest of the run (needs libfaketime: apt-get install faketime)
              --drill-region REGION   where (default: the first region of the model)
              --drill-at S            how far into the window it starts (default: a third of --duration)
              --drill-length S        how long the cut lasts, the killed server stays down or the disk stays full
                                      (default 60s cut, 0s down, 30s full)

            output:
              --results DIR           results directory (default loadtest/target/results/<timestamp>)
              --progress-every S      a progress line every S seconds (default 5)
              --opening-cash N        each load customer's opening cash, for the check (default 10000000.00)
              --no-check              skip the correctness check
              --idle-baseline S       local target: measure CPU and Cassandra counters at rest for S seconds before the load, once
                                      the servers' CPU rate over 30-s steps stops falling, below 90 %% of the cores (at least S, at
                                      most 10 min), and report per-order figures with that rate subtracted (default 30; 0: none)
            """.formatted(Preset.DEMO.description(), Preset.SMOKE.description(), Preset.PROTOTYPE.description(), Preset.SMALL.description(), Preset.MEDIUM.description());

    private final Map<String, String> single = new HashMap<>();
    private final Map<String, List<String>> repeated = new HashMap<>();
    private final Set<String> flags = new java.util.HashSet<>();

    private CliOptions() {
    }

    public static boolean wantsHelp(String[] args) {
        return List.of(args).contains("--help") || List.of(args).contains("-h");
    }

    public static boolean wantsVersion(String[] args) {
        return List.of(args).contains("--version");
    }

    public static RunPlan parse(String[] args) {
        CliOptions o = new CliOptions();
        o.read(args);
        return o.plan();
    }

    /**
     * The syntax is picocli's, as in every command line of the project ({@code --name value} or
     * {@code --name=value}, a repeated single option is a mistake); the meaning of each value is
     * checked by {@link #plan()}, so that every message names the option and what it wants.
     */
    private void read(String[] args) {
        CommandSpec spec = CommandSpec.create().name("loadtest");
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).build());
        for (String flag : FLAGS) {
            if (!flag.equals("help")) {
                spec.addOption(OptionSpec.builder("--" + flag).type(boolean.class).arity("0").build());
            }
        }
        for (String name : VALUED) {
            if (name.equals("warmup")) {
                continue;
            }
            OptionSpec.Builder option = OptionSpec.builder(name.equals("warm-up") ? new String[] {"--warm-up", "--warmup"} : new String[] {"--" + name})
                    .paramLabel("VALUE").arity("1");
            if (REPEATABLE.contains(name)) {
                option.type(List.class).auxiliaryTypes(String.class);
            } else {
                option.type(String.class);
            }
            spec.addOption(option.build());
        }
        ParseResult parsed;
        try {
            parsed = new CommandLine(spec).parseArgs(args);
        } catch (ParameterException e) {
            throw new UsageException(e.getMessage());
        }
        for (OptionSpec option : parsed.matchedOptions()) {
            String name = option.longestName().substring(2);
            if (FLAGS.contains(name)) {
                flags.add(name);
            } else if (REPEATABLE.contains(name)) {
                repeated.put(name, option.getValue());
            } else {
                single.put(name, option.getValue());
            }
        }
    }

    private RunPlan plan() {
        Preset preset;
        try {
            preset = Preset.named(single.getOrDefault("preset", "small"));
        } catch (IllegalArgumentException unknown) {
            throw new UsageException(unknown.getMessage());
        }
        RegionsModel regions;
        try {
            regions = single.containsKey("regions") ? RegionsFile.load(Path.of(single.get("regions"))) : RegionsFile.load();
        } catch (RuntimeException e) {
            throw new UsageException("--regions: " + e.getMessage());
        }
        WorkloadSpec base = preset.spec(regions.names());
        WorkloadSpec spec;
        try {
            spec = workload(base, regions);
        } catch (IllegalArgumentException e) {
            throw e instanceof UsageException u ? u : new UsageException(e.getMessage());
        }
        boolean endpoints = repeated.containsKey("broker") || repeated.containsKey("kafka") || repeated.containsKey("cql");
        TargetPlan target;
        if (single.containsKey("target-terraform")) {
            for (String other : List.of("instance", "work-dir", "nodes-per-dc", "brokers-per-region", "broker-jar", "broker", "kafka", "cql", "tls")) {
                if (single.containsKey(other) || repeated.containsKey(other) || flags.contains(other)) {
                    throw new UsageException("--target-terraform names the whole deployment; drop --" + other);
                }
            }
            target = terraformTarget(Path.of(single.get("target-terraform")), regions, cqlLogin());
        } else if (endpoints) {
            for (String local : List.of("instance", "work-dir", "nodes-per-dc", "brokers-per-region", "broker-jar", "tls")) {
                if (single.containsKey(local) || flags.contains(local)) {
                    throw new UsageException("--" + local + " is for the local stack; with --broker/--kafka the deployment exists already");
                }
            }
            Map<String, String> brokers = pairs("broker", regions);
            Map<String, String> kafka = pairs("kafka", regions);
            Map<String, CqlEndpoint> cql = new LinkedHashMap<>();
            Optional<CqlLogin> login = cqlLogin();
            pairs("cql", regions).forEach((region, value) -> cql.put(region, login.map(cqlEndpoint(value)::withLogin).orElse(cqlEndpoint(value))));
            for (String region : regions.names()) {
                if (!brokers.containsKey(region)) {
                    throw new UsageException("--broker " + region + "=URL missing (an existing deployment needs every region's broker)");
                }
            }
            for (String region : regions.names()) {
                if (!kafka.containsKey(region)) {
                    throw new UsageException("--kafka " + region + "=HOST:PORT missing (an existing deployment needs every region's Kafka)");
                }
            }
            target = new TargetPlan.Endpoints(brokers, kafka, cql, Optional.empty(), Map.of());
        } else {
            if (single.containsKey("cql-login")) {
                throw new UsageException("--cql-login is for an existing deployment (--cql or --target-terraform); the local stack takes CQL without a login");
            }
            int instance = integer("instance", DEFAULT_INSTANCE, 0, 60);
            Path workDir = Path.of(single.getOrDefault("work-dir", "loadtest/target/stack-" + instance));
            Path jar = Path.of(single.getOrDefault("broker-jar", "broker-service/target/broker-service-0.1.0-SNAPSHOT.jar"));
            OptionalInt nodesPerDc = single.containsKey("nodes-per-dc") ? OptionalInt.of(integer("nodes-per-dc", 0, 1, 3)) : OptionalInt.empty();
            target = new TargetPlan.Local(instance, workDir, Optional.ofNullable(single.get("regions")).map(Path::of), nodesPerDc, jar,
                    repeated.getOrDefault("broker-arg", List.of()), flags.contains("tls"), integer("brokers-per-region", 1, 1, 4));
        }
        Optional<SlaPlan> sla = Optional.empty();
        if (flags.contains("sla-search")) {
            double start = number("sla-start", spec.ordersPerSecond());
            try {
                sla = Optional.of(SlaPlan.of(number("sla-ms", 10), start, number("sla-step", start), number("sla-factor", 0),
                        integer("sla-max-steps", 8, 1, 1000)));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        } else {
            for (String s : List.of("sla-ms", "sla-start", "sla-step", "sla-factor", "sla-max-steps")) {
                if (single.containsKey(s)) {
                    throw new UsageException("--" + s + " needs --sla-search");
                }
            }
        }
        Path results = single.containsKey("results") ? Path.of(single.get("results")) : ResultsDirectory.timestamped(ResultsDirectory.DEFAULT_PARENT);
        Duration every = seconds("progress-every", Duration.ofSeconds(5));
        if (every.toMillis() < 1000) {
            throw new UsageException("--progress-every must be at least 1 s");
        }
        BigDecimal cash;
        try {
            cash = new BigDecimal(single.getOrDefault("opening-cash", "10000000.00"));
        } catch (NumberFormatException e) {
            throw new UsageException("--opening-cash: '" + single.get("opening-cash") + "' is not a number");
        }
        Duration idle = seconds("idle-baseline", Duration.ofSeconds(30));
        return new RunPlan(preset, regions, spec, target, sla, results, every, cash, !flags.contains("no-floor"), !flags.contains("no-check"), idle,
                drill(regions, spec, target));
    }

    private Optional<Drill> drill(RegionsModel regions, WorkloadSpec spec, TargetPlan target) {
        if (!single.containsKey("drill")) {
            for (String s : List.of("drill-region", "drill-at", "drill-length")) {
                if (single.containsKey(s)) {
                    throw new UsageException("--" + s + " needs --drill");
                }
            }
            return Optional.empty();
        }
        Drill.Kind kind = Drill.Kind.named(single.get("drill"))
                .orElseThrow(() -> new UsageException("--drill must be one of " + Drill.Kind.keys() + ", was '" + single.get("drill") + "'"));
        if (!(target instanceof TargetPlan.Local)) {
            throw new UsageException("--drill injects failures into the local stack; an existing deployment is not touched");
        }
        if (flags.contains("sla-search")) {
            throw new UsageException("--drill runs with one load level, not with --sla-search");
        }
        if ((kind == Drill.Kind.CASSANDRA_KILL || kind == Drill.Kind.DISK_FULL || kind == Drill.Kind.COMMITLOG_FULL)
                && target instanceof TargetPlan.Local local) {
            int nodes = local.nodesPerDc().orElse(regions.regions().stream().mapToInt(Region::cassandraNodes).min().orElse(0));
            if (nodes < 3) {
                throw new UsageException("--drill " + kind.key() + " needs 3 Cassandra nodes per DC (--nodes-per-dc 3): with " + nodes
                        + " (RF " + nodes + ") one node down fails every LOCAL_QUORUM write");
            }
        }
        String region = single.getOrDefault("drill-region", regions.names().get(0));
        if (!regions.names().contains(region)) {
            throw new UsageException("--drill-region: unknown region '" + region + "'; known: " + regions.names());
        }
        Duration at = seconds("drill-at", spec.duration().dividedBy(3));
        if (at.compareTo(spec.duration()) >= 0) {
            throw new UsageException("--drill-at must be within the measured window (--duration " + spec.duration().toSeconds() + "s)");
        }
        return Optional.of(new Drill(kind, region, at, seconds("drill-length", kind.defaultLength())));
    }

    private WorkloadSpec workload(WorkloadSpec base, RegionsModel regions) {
        double orders = number("orders", base.ordersPerSecond());
        OrderMix mix = single.containsKey("mix") ? OrderMix.parse(single.get("mix")) : base.mix();
        if (single.containsKey("market")) {
            mix = mix.withMarket(share("market", mix.market()));
        }
        Map<String, Integer> symbols = new LinkedHashMap<>(base.symbolsPerRegion());
        if (single.containsKey("symbols")) {
            for (String part : single.get("symbols").split(",")) {
                String[] kv = part.split("=", 2);
                if (kv.length != 2) {
                    throw new UsageException("--symbols wants REGION=N,... (e.g. us-east-1=60,ap-southeast-2=0), got '" + single.get("symbols") + "'");
                }
                if (!regions.names().contains(kv[0].trim())) {
                    throw new UsageException("--symbols: unknown region '" + kv[0].trim() + "'; known: " + regions.names());
                }
                symbols.put(kv[0].trim(), parseInt("symbols", kv[1].trim(), 0, 1000));
            }
        }
        double floorDefault = base.ordersPerSecond() == 0 ? base.floorWritesPerSecond()
                : base.floorWritesPerSecond() * orders / base.ordersPerSecond();
        return new WorkloadSpec(orders, number("ticks", base.ticksPerSecond()), mix, share("buy-share", base.buyShare()),
                share("marketable", base.marketableShare()), share("cross-region", base.crossRegionShare()), symbols,
                integer("customers", base.customers(), 1, 1_000_000), seconds("ramp-up", base.rampUp()), seconds("warm-up", base.warmUp()),
                seconds("duration", base.duration()), seconds("drain", base.drain()), number("floor-rate", Math.max(1, Math.round(floorDefault))),
                integer("prime-shares", base.primeShares(), 1, 1_000_000), (long) number("seed", base.seed()));
    }

    private Map<String, String> pairs(String option, RegionsModel regions) {
        Map<String, String> result = new LinkedHashMap<>();
        for (String value : repeated.getOrDefault(option, List.of())) {
            for (String part : value.split(",")) {
                String[] kv = part.split("=", 2);
                if (kv.length != 2 || kv[1].isBlank()) {
                    throw new UsageException("--" + option + " wants REGION=VALUE, got '" + part + "'");
                }
                if (!regions.names().contains(kv[0].trim())) {
                    throw new UsageException("--" + option + ": unknown region '" + kv[0].trim() + "'; known: " + regions.names());
                }
                if (result.put(kv[0].trim(), kv[1].trim()) != null) {
                    throw new UsageException("--" + option + " names region " + kv[0].trim() + " twice");
                }
            }
        }
        return result;
    }

    /** The endpoints of every region of the model, from a terraform output file; the file and the model must name the same regions. */
    static TargetPlan.Endpoints terraformTarget(Path file, RegionsModel regions, Optional<CqlLogin> login) {
        DeploymentOutputs outputs;
        try {
            outputs = DeploymentOutputs.read(file);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--target-terraform: " + e.getMessage());
        }
        if (!Set.copyOf(regions.names()).equals(outputs.regions().keySet())) {
            throw new UsageException("--target-terraform: " + file + " names regions " + outputs.regions().keySet() + " but the regions model has "
                    + regions.names() + " (use --regions with the file Terraform applied)");
        }
        Map<String, String> brokers = new LinkedHashMap<>();
        Map<String, String> kafka = new LinkedHashMap<>();
        Map<String, CqlEndpoint> cql = new LinkedHashMap<>();
        Map<String, KafkaTrust> kafkaTrust = new LinkedHashMap<>();
        for (String region : regions.names()) {
            DeploymentOutputs.RegionEndpoints r = outputs.regions().get(region);
            if (!r.datacenter().equals(regions.region(region).datacenter())) {
                throw new UsageException("--target-terraform: region " + region + " has DC " + r.datacenter() + " in " + file
                        + " but " + regions.region(region).datacenter() + " in the regions model");
            }
            brokers.put(region, r.brokerUrl());
            kafka.put(region, r.kafkaBootstrap());
            r.kafkaTrust().ifPresent(trust -> kafkaTrust.put(region, trust));
            CqlEndpoint endpoint = cqlEndpoint(String.join("+", r.cqlContactPoints()) + "/" + r.datacenter());
            try {
                endpoint = r.cqlTrust().map(CaCertificates::sslContext).map(endpoint::withTls).orElse(endpoint);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--target-terraform: region " + region + "'s cql_ca_cert_pem: " + e.getMessage());
            }
            cql.put(region, login.map(endpoint::withLogin).orElse(endpoint));
        }
        return new TargetPlan.Endpoints(brokers, kafka, cql,
                outputs.regions().values().stream().flatMap(r -> r.kafkaCredentials().stream()).findFirst().map(Path::of), kafkaTrust);
    }

    /** {@code --cql-login ROLE=FILE}: the role, and its password from the file's first line (never on the command line). */
    private Optional<CqlLogin> cqlLogin() {
        String value = single.get("cql-login");
        if (value == null) {
            return Optional.empty();
        }
        int eq = value.indexOf('=');
        if (eq <= 0 || eq == value.length() - 1) {
            throw new UsageException("--cql-login wants ROLE=PASSWORD_FILE, got '" + value + "'");
        }
        Path file = Path.of(value.substring(eq + 1));
        String password;
        try {
            password = SecretFiles.firstLine(file, "the password file");
        } catch (IllegalArgumentException e) {
            throw new UsageException("--cql-login: cannot read the password file " + file);
        }
        if (password.isEmpty()) {
            throw new UsageException("--cql-login: the password file " + file + " has no password on its first line");
        }
        return Optional.of(new CqlLogin(value.substring(0, eq), password));
    }

    static CqlEndpoint cqlEndpoint(String value) {
        int slash = value.lastIndexOf('/');
        if (slash <= 0 || slash == value.length() - 1) {
            throw new UsageException("--cql wants REGION=HOST:PORT[+HOST:PORT]/DC, got '" + value + "'");
        }
        List<InetSocketAddress> points = new ArrayList<>();
        for (String hostPort : value.substring(0, slash).split("\\+")) {
            int colon = hostPort.lastIndexOf(':');
            String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            int port = colon < 0 ? 9042 : parseInt("cql", hostPort.substring(colon + 1), 1, 65535);
            points.add(new InetSocketAddress(host, port));
        }
        return new CqlEndpoint(points, value.substring(slash + 1));
    }

    private double number(String name, double fallback) {
        String v = single.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            double d = Double.parseDouble(v);
            if (!Double.isFinite(d) || d < 0) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a number >= 0, was '" + v + "'");
        }
    }

    private double share(String name, double fallback) {
        double v = number(name, fallback);
        if (v > 1) {
            throw new UsageException("--" + name + " must be a share between 0 and 1, was '" + single.get(name) + "'");
        }
        return v;
    }

    private int integer(String name, int fallback, int min, int max) {
        String v = single.get(name);
        return v == null ? fallback : parseInt(name, v, min, max);
    }

    private static int parseInt(String name, String v, int min, int max) {
        try {
            int i = Integer.parseInt(v);
            if (i < min || i > max) {
                throw new NumberFormatException();
            }
            return i;
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a whole number from " + min + " to " + max + ", was '" + v + "'");
        }
    }

    private Duration seconds(String name, Duration fallback) {
        String v = single.get(name);
        if (v == null) {
            return fallback;
        }
        String s = v.trim().toLowerCase(Locale.ROOT);
        double factor = 1;
        if (s.endsWith("m")) {
            factor = 60;
            s = s.substring(0, s.length() - 1);
        } else if (s.endsWith("s")) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            double seconds = Double.parseDouble(s) * factor;
            if (!Double.isFinite(seconds) || seconds < 0) {
                throw new NumberFormatException();
            }
            return Duration.ofMillis(Math.round(seconds * 1000));
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be seconds (e.g. 30, 30s, 2m), was '" + v + "'");
        }
    }
}
