package org.brokerapp.ticker.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoublePredicate;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.brokerapp.ticker.Topics;
import org.brokerapp.ticker.model.ZipfPopularity;
import org.brokerapp.ticker.pacing.Burst;
import org.brokerapp.ticker.pacing.Durations;
import org.brokerapp.ticker.pacing.RunLength;
import org.brokerapp.ticker.publish.KafkaSettings;
import org.brokerapp.ticker.replay.EventTime;
import org.brokerapp.ticker.replay.Speed;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Reads the command line into a {@link Command}; anything wrong is a one-line {@link UsageException}.
 * Options take their value as the next argument or after {@code =} (parsed with picocli, as every
 * command line of the project).
 */
public final class CommandLine {

    public static final String USAGE = """
            usage: ticker-feed simulate --region REGION [--region REGION ...] [options]
                   ticker-feed replay --region REGION [--region REGION ...] --file TRADES.csv [options]
                   ticker-feed --help

            Publishes the trades of each region's exchanges to that region's Kafka: topic 'ticks', keyed by
            symbol, tick format v1 (ticker-feed/README.md). Several --region options run one feed per region
            in this process. Progress every few seconds, a summary per region at the end.

            simulate: geometric Brownian motion per symbol from the symbol universe
              --rate N              ticks per second, per region (default 1000)
              --duration D          stop after D, e.g. 500ms, 30s, 2m, 1h
              --count N             stop after N ticks per region; without --duration or --count, run until Ctrl-C
              --seed S              the same seed gives the same ticks (default 1)
              --skew X              Zipf exponent of symbol popularity: 0 uniform, 1.1 a few hot symbols (default 1.1)
              --burst Mx:D          M times the rate for the first D, a market-open surge, e.g. 5x:10s (default none)
            replay: trades from a CSV file (time,symbol,exchange,price,size; see ticker-feed/README.md)
              --file F              the trades; rows of exchanges homed in regions not given are skipped
              --speed S             1 original pace, 10 ten times faster, max as fast as possible (default 1)
              --event-time T        original (the file's times) or now (when each tick is due) (default original)
            Kafka:
              --bootstrap-servers HOST:PORT[,HOST:PORT]   the Kafka of the only --region
              --bootstrap REGION=HOST:PORT[,HOST:PORT]    the Kafka of one region; repeat for each region
                                    local stack (infra/bin/stack up): region r of regions.yaml at 127.0.r.2:9092
              --topic T             (default ticks)
              --partitions N        partitions if the feed creates the topic (default 12)
              --compression C       none, lz4, zstd, snappy or gzip (default lz4)
              --kafka-timeout D     how long to wait for Kafka at the start (default 15s)
              --kafka-user U        log in to Kafka as U with SCRAM-SHA-512 (the local stack's feed principal: feed)
              --kafka-password-file F   the file holding U's password (local stack: .stack/kafka-credentials/feed.password)
              --kafka-truststore F  log in over TLS, checking Kafka against this PKCS12 truststore (local stack with --tls:
                                    .stack/tls/truststore.p12)
              --kafka-truststore-password-file F   the file holding its password (local stack: .stack/tls/store-password)
              --kafka-ca F          log in over TLS, checking Kafka against the CA certificates of this PEM file
                                    (on AWS: Terraform's data CA), instead of a PKCS12 truststore
            failover:
              --failover EXCHANGE=REGION   publish EXCHANGE's ticks to REGION's Kafka instead of its home's (repeatable),
                                    for a region that adopted the exchange (see broker-service /admin/exchanges)
            other:
              --progress D          interval of the progress lines, or off (default 5s)
              --regions FILE        the regions model (default: $REGIONS_FILE, else infra/regions.yaml as packaged)
              --symbols FILE        the symbol universe (default: infra/symbols.csv as packaged)

            exit status: 0 every tick delivered, 1 runtime failure or undelivered ticks, 2 usage error
            """;

    private static final Set<String> HELP = Set.of("--help", "-h", "help");
    private static final Set<String> COMMON = Set.of("region", "bootstrap-servers", "bootstrap", "topic", "partitions",
            "compression", "kafka-timeout", "progress", "regions", "symbols", "failover", "kafka-user", "kafka-password-file",
            "kafka-truststore", "kafka-truststore-password-file", "kafka-ca");
    private static final Set<String> SIMULATE = Set.of("rate", "duration", "count", "seed", "skew", "burst");
    private static final Set<String> REPLAY = Set.of("file", "speed", "event-time");
    private static final Set<String> REPEATABLE = Set.of("region", "bootstrap", "failover");
    private static final Set<String> COMPRESSIONS = Set.of("none", "lz4", "zstd", "snappy", "gzip");
    private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    private static final Pattern BURST = Pattern.compile("(\\d+(?:\\.\\d+)?)x:(.+)");
    private static final Pattern FAILOVER = Pattern.compile("([A-Z0-9_-]{1,16})=(\\S+)");
    private static final Pattern HOST_PORTS = Pattern.compile("[^,=\\s]+:\\d{1,5}(,[^,=\\s]+:\\d{1,5})*");
    private static final int MAX_PARTITIONS = 10_000;

    private CommandLine() {
    }

    public static Command parse(String... args) {
        if (args.length == 0) {
            throw new UsageException("no command: simulate, replay or --help");
        }
        if (List.of(args).stream().anyMatch(HELP::contains)) {
            return new Command.Help();
        }
        if (List.of(args).contains("--version")) {
            return new Command.Version();
        }
        String command = args[0];
        if (!command.equals("simulate") && !command.equals("replay")) {
            throw new UsageException("unknown command '" + command + "': simulate, replay or --help");
        }
        Options options = Options.read(command, args);
        FeedOptions feed = feedOptions(options);
        if (command.equals("simulate")) {
            return new Command.Simulate(feed,
                    options.number("rate", 1000, "a number of ticks per second > 0", v -> v > 0),
                    runLength(options),
                    options.whole("seed", 1, "a whole number", v -> true),
                    options.number("skew", 1.1, "a number from 0 to " + (int) ZipfPopularity.MAX_EXPONENT,
                            v -> v >= 0 && v <= ZipfPopularity.MAX_EXPONENT),
                    options.one("burst").map(CommandLine::burst).orElse(Burst.NONE));
        }
        Path file = options.one("file").map(Path::of).orElseThrow(() -> new UsageException("replay needs --file TRADES.csv"));
        Speed speed = options.one("speed").map(text -> {
            try {
                return Speed.parse(text);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--speed: " + e.getMessage());
            }
        }).orElse(new Speed.Factor(1));
        EventTime eventTime = options.one("event-time").map(text -> switch (text) {
            case "original" -> EventTime.ORIGINAL;
            case "now" -> EventTime.NOW;
            default -> throw new UsageException("--event-time must be original or now, was '" + text + "'");
        }).orElse(EventTime.ORIGINAL);
        return new Command.Replay(feed, file, speed, eventTime);
    }

    private static FeedOptions feedOptions(Options options) {
        List<String> regions = options.all("region");
        if (regions.isEmpty()) {
            throw new UsageException("no --region given: which region's exchanges should the feed publish?");
        }
        for (String region : regions) {
            if (regions.indexOf(region) != regions.lastIndexOf(region)) {
                throw new UsageException("--region " + region + " is given twice");
            }
        }
        String topic = options.one("topic").orElse(Topics.TICKS);
        if (!TOPIC.matcher(topic).matches()) {
            throw new UsageException("--topic must be 1-249 characters of a-z A-Z 0-9 . _ -, was '" + topic + "'");
        }
        String compression = options.one("compression").orElse(KafkaSettings.DEFAULT_COMPRESSION);
        if (!COMPRESSIONS.contains(compression)) {
            throw new UsageException("--compression must be one of none, lz4, zstd, snappy, gzip, was '" + compression + "'");
        }
        Duration progress = options.one("progress").map(text -> text.equals("off") ? Duration.ZERO : options.duration("progress", text))
                .orElse(Duration.ofSeconds(5));
        return new FeedOptions(regions, bootstrap(options, regions), topic,
                (int) options.whole("partitions", KafkaSettings.DEFAULT_PARTITIONS, "a whole number from 1 to " + MAX_PARTITIONS,
                        v -> v >= 1 && v <= MAX_PARTITIONS),
                compression,
                options.one("kafka-timeout").map(text -> options.positiveDuration("kafka-timeout", text)).orElse(KafkaSettings.DEFAULT_TIMEOUT),
                progress,
                options.one("regions").map(Path::of),
                options.one("symbols").map(Path::of),
                failover(options),
                kafkaLogin(options));
    }

    private static Optional<FeedOptions.KafkaLogin> kafkaLogin(Options options) {
        Optional<String> user = options.one("kafka-user");
        Optional<String> passwordFile = options.one("kafka-password-file");
        if (user.isPresent() != passwordFile.isPresent()) {
            throw new UsageException("give --kafka-user and --kafka-password-file together");
        }
        Optional<String> truststore = options.one("kafka-truststore");
        Optional<String> truststorePassword = options.one("kafka-truststore-password-file");
        if (truststore.isPresent() != truststorePassword.isPresent()) {
            throw new UsageException("give --kafka-truststore and --kafka-truststore-password-file together");
        }
        Optional<String> ca = options.one("kafka-ca");
        if (ca.isPresent() && truststore.isPresent()) {
            throw new UsageException("give --kafka-ca or --kafka-truststore, not both");
        }
        if ((truststore.isPresent() || ca.isPresent()) && user.isEmpty()) {
            throw new UsageException("--kafka-truststore and --kafka-ca go with a login: give --kafka-user and --kafka-password-file too");
        }
        Optional<FeedOptions.Truststore> trust = truststore.map(t -> new FeedOptions.Truststore(Path.of(t), Path.of(truststorePassword.get())))
                .or(() -> ca.map(c -> FeedOptions.Truststore.pem(Path.of(c))));
        return user.map(u -> new FeedOptions.KafkaLogin(u, Path.of(passwordFile.get()), trust));
    }

    /** {@code --failover EXCHANGE=REGION} options by exchange, in the order given; the regions model judges the names. */
    private static Map<String, String> failover(Options options) {
        Map<String, String> failover = new LinkedHashMap<>();
        for (String entry : options.all("failover")) {
            Matcher m = FAILOVER.matcher(entry);
            if (!m.matches()) {
                throw new UsageException("--failover must be EXCHANGE=REGION, e.g. NYSE=ap-southeast-2, was '" + entry + "'");
            }
            if (failover.put(m.group(1), m.group(2)) != null) {
                throw new UsageException("--failover " + m.group(1) + " is given twice");
            }
        }
        return failover;
    }

    private static Map<String, String> bootstrap(Options options, List<String> regions) {
        Map<String, String> bootstrap = new LinkedHashMap<>();
        Optional<String> single = options.one("bootstrap-servers");
        if (single.isPresent()) {
            if (regions.size() > 1) {
                throw new UsageException("--bootstrap-servers names one Kafka, but " + regions.size()
                        + " regions are given: use --bootstrap REGION=HOST:PORT for each");
            }
            bootstrap.put(regions.get(0), hostPorts("--bootstrap-servers", single.get()));
        }
        for (String entry : options.all("bootstrap")) {
            int equals = entry.indexOf('=');
            if (equals <= 0) {
                throw new UsageException("--bootstrap must be REGION=HOST:PORT, was '" + entry + "'");
            }
            String region = entry.substring(0, equals);
            if (!regions.contains(region)) {
                throw new UsageException("--bootstrap names region " + region + ", which is not one of the --region options " + regions);
            }
            if (bootstrap.put(region, hostPorts("--bootstrap " + region, entry.substring(equals + 1))) != null) {
                throw new UsageException("the Kafka of " + region + " is given twice");
            }
        }
        for (String region : regions) {
            if (!bootstrap.containsKey(region)) {
                throw new UsageException("no Kafka for region " + region + ": give "
                        + (regions.size() == 1 ? "--bootstrap-servers HOST:PORT" : "--bootstrap " + region + "=HOST:PORT"));
            }
        }
        return bootstrap;
    }

    private static String hostPorts(String option, String value) {
        if (!HOST_PORTS.matcher(value).matches()) {
            throw new UsageException(option + " must be HOST:PORT[,HOST:PORT...], was '" + value + "'");
        }
        return value;
    }

    private static RunLength runLength(Options options) {
        Optional<String> duration = options.one("duration");
        Optional<String> count = options.one("count");
        if (duration.isPresent() && count.isPresent()) {
            throw new UsageException("give --duration or --count, not both");
        }
        if (duration.isPresent()) {
            return new RunLength.Lasting(options.positiveDuration("duration", duration.get()));
        }
        if (count.isPresent()) {
            return new RunLength.Count(options.whole("count", 0, "a whole number of ticks >= 1", v -> v >= 1));
        }
        return new RunLength.Unbounded();
    }

    private static Burst burst(String text) {
        Matcher m = BURST.matcher(text);
        if (!m.matches()) {
            throw new UsageException("--burst must be MULTIPLIERx:DURATION, e.g. 5x:10s, was '" + text + "'");
        }
        double multiplier = Double.parseDouble(m.group(1));
        if (multiplier <= 0) {
            throw new UsageException("--burst multiplier must be > 0, was '" + text + "'");
        }
        try {
            return new Burst(multiplier, Durations.parse(m.group(2)));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--burst: " + e.getMessage());
        }
    }

    /** The options as given, by name without dashes. */
    private static final class Options {
        private final Map<String, List<String>> values = new LinkedHashMap<>();

        /**
         * The syntax is picocli's, as in every command line of the project ({@code --name value} or
         * {@code --name=value}; a single option given twice is a mistake); the values are checked
         * by {@link CommandLine#parse}, so that every message names the option and what it wants.
         */
        static Options read(String command, String[] args) {
            Set<String> allowed = command.equals("simulate") ? SIMULATE : REPLAY;
            Set<String> other = command.equals("simulate") ? REPLAY : SIMULATE;
            for (String arg : args) {
                String name = arg.startsWith("--") ? arg.substring(2, arg.contains("=") ? arg.indexOf('=') : arg.length()) : "";
                if (other.contains(name)) {
                    throw new UsageException("--" + name + " is an option of " + (command.equals("simulate") ? "replay" : "simulate") + ", not " + command);
                }
            }
            CommandSpec spec = CommandSpec.create().name("ticker-feed " + command);
            for (String name : COMMON) {
                spec.addOption(option(name));
            }
            for (String name : allowed) {
                spec.addOption(option(name));
            }
            ParseResult parsed;
            try {
                parsed = new picocli.CommandLine(spec).parseArgs(java.util.Arrays.copyOfRange(args, 1, args.length));
            } catch (ParameterException e) {
                throw new UsageException(e.getMessage());
            }
            Options options = new Options();
            for (OptionSpec option : parsed.matchedOptions()) {
                Object value = option.getValue();
                options.values.put(option.longestName().substring(2), value instanceof List<?> list
                        ? list.stream().map(String::valueOf).toList() : List.of(String.valueOf(value)));
            }
            return options;
        }

        private static OptionSpec option(String name) {
            OptionSpec.Builder option = OptionSpec.builder("--" + name).paramLabel("VALUE").arity("1");
            return (REPEATABLE.contains(name) ? option.type(List.class).auxiliaryTypes(String.class) : option.type(String.class)).build();
        }

        Optional<String> one(String name) {
            return values.getOrDefault(name, List.of()).stream().findFirst();
        }

        List<String> all(String name) {
            return values.getOrDefault(name, List.of());
        }

        double number(String name, double otherwise, String what, DoublePredicate valid) {
            Optional<String> text = one(name);
            if (text.isEmpty()) {
                return otherwise;
            }
            double value;
            try {
                value = Double.parseDouble(text.get());
            } catch (NumberFormatException e) {
                throw invalid(name, what, text.get());
            }
            if (!Double.isFinite(value) || !valid.test(value)) {
                throw invalid(name, what, text.get());
            }
            return value;
        }

        long whole(String name, long otherwise, String what, LongPredicate valid) {
            Optional<String> text = one(name);
            if (text.isEmpty()) {
                return otherwise;
            }
            long value;
            try {
                value = Long.parseLong(text.get());
            } catch (NumberFormatException e) {
                throw invalid(name, what, text.get());
            }
            if (!valid.test(value)) {
                throw invalid(name, what, text.get());
            }
            return value;
        }

        Duration duration(String name, String text) {
            try {
                return Durations.parse(text);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--" + name + ": " + e.getMessage());
            }
        }

        Duration positiveDuration(String name, String text) {
            Duration duration = duration(name, text);
            if (duration.isZero()) {
                throw new UsageException("--" + name + " must be longer than 0, was '" + text + "'");
            }
            return duration;
        }

        private static UsageException invalid(String name, String what, String text) {
            return new UsageException(String.format(Locale.ROOT, "--%s must be %s, was '%s'", name, what, text));
        }
    }
}
