package org.brokerapp.loadtest.cli;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
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
import org.brokerapp.regions.CqlLogin;
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
            target = DeploymentEndpoints.fromTerraform(Path.of(single.get("target-terraform")), regions, cqlLogin());
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
            pairs("cql", regions).forEach((region, value) -> cql.put(region, login.map(DeploymentEndpoints.cqlEndpoint(value)::withLogin).orElse(DeploymentEndpoints.cqlEndpoint(value))));
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

    static int parseInt(String name, String v, int min, int max) {
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
