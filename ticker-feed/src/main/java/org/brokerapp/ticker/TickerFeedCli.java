package org.brokerapp.ticker;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import org.brokerapp.regions.BuildVersion;
import org.brokerapp.regions.InvalidRegionsException;
import org.brokerapp.regions.KafkaCredential;
import org.brokerapp.regions.KafkaTrust;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.Region;
import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.cli.Command;
import org.brokerapp.ticker.cli.CommandLine;
import org.brokerapp.ticker.cli.FeedOptions;
import org.brokerapp.ticker.cli.UsageException;
import org.brokerapp.ticker.model.SimulatedMarket;
import org.brokerapp.ticker.model.SimulatedTicks;
import org.brokerapp.ticker.pacing.RateSchedule;
import org.brokerapp.ticker.publish.FeedException;
import org.brokerapp.ticker.publish.FeedRun;
import org.brokerapp.ticker.publish.KafkaSettings;
import org.brokerapp.ticker.publish.RegionFeed;
import org.brokerapp.ticker.replay.ReplayFile;
import org.brokerapp.ticker.replay.ReplayFileException;

/**
 * {@code ticker-feed/bin/ticker-feed}: simulated or replayed ticks of each region's exchanges into
 * that region's Kafka. Every failure is one line on stderr: exit 2 for a wrong command line, 1 for
 * anything else (bad replay file, Kafka unreachable, ticks not delivered).
 */
public final class TickerFeedCli {

    static final int USAGE_ERROR = 2;
    static final int FAILURE = 1;
    private static final long SHUTDOWN_WAIT_SECONDS = 45;

    private TickerFeedCli() {
    }

    public static void main(String[] args) {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch finished = new CountDownLatch(1);
        // Ctrl-C: stop sending, then let the run flush and print its summary before the JVM goes
        Thread onSignal = new Thread(() -> {
            stop.set(true);
            try {
                finished.await(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ticker-feed-shutdown");
        Runtime.getRuntime().addShutdownHook(onSignal);
        int status;
        try {
            status = run(args, System.out, System.err, stop::get);
        } finally {
            finished.countDown();
        }
        System.exit(status);
    }

    /** Runs a command line; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err, BooleanSupplier stop) {
        try {
            Command command = CommandLine.parse(args);
            if (command instanceof Command.Help) {
                out.print(CommandLine.USAGE);
                return 0;
            }
            if (command instanceof Command.Version) {
                out.println(BuildVersion.line("ticker-feed"));
                return 0;
            }
            if (command instanceof Command.Simulate simulate) {
                return simulate(simulate, out, err, stop);
            }
            return replay((Command.Replay) command, out, err, stop);
        } catch (UsageException e) {
            err.println("ticker-feed: " + e.getMessage() + " (ticker-feed --help shows the usage)");
            return USAGE_ERROR;
        } catch (FeedException | ReplayFileException | InvalidRegionsException | UncheckedIOException e) {
            err.println("ticker-feed: " + firstLine(e.getMessage()));
            return FAILURE;
        } catch (RuntimeException e) {
            err.println("ticker-feed: unexpected " + e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()));
            return FAILURE;
        }
    }

    private static int simulate(Command.Simulate command, PrintStream out, PrintStream err, BooleanSupplier stop) {
        FeedOptions options = command.feed();
        RegionsModel model = regionsModel(options, out);
        SymbolUniverse universe = symbolUniverse(options);
        RateSchedule schedule = new RateSchedule(command.rate(), command.burst());
        List<RegionFeed> feeds = new ArrayList<>();
        for (Region region : regions(model, options)) {
            List<Listing> homed = universe.homedIn(region);
            if (region.exchanges().isEmpty()) {
                out.println("[" + region.name() + "] every exchange failed over elsewhere: nothing to publish");
                continue;
            }
            if (homed.isEmpty()) {
                throw new FeedException("region " + region.name() + " has no symbols: the universe lists none on " + region.exchanges());
            }
            String plan = String.format(Locale.ROOT, "simulating %,d symbols of %s at %,.0f ticks/s%s, %s, seed %d, skew %s",
                    homed.size(), String.join("+", region.exchanges()), command.rate(),
                    command.burst().isNone() ? "" : " (burst " + command.burst() + ")", command.length(), command.seed(), command.skew());
            feeds.add(new RegionFeed(region.name(), kafka(options, region), homed.stream().map(Listing::symbol).toList(), plan,
                    start -> new SimulatedTicks(SimulatedMarket.forRegion(region, universe, command.seed(), command.skew(), start),
                            schedule, command.length()),
                    out));
        }
        return FeedRun.run(feeds, options.progress(), stop, out, err);
    }

    private static int replay(Command.Replay command, PrintStream out, PrintStream err, BooleanSupplier stop) {
        FeedOptions options = command.feed();
        RegionsModel model = regionsModel(options, out);
        SymbolUniverse universe = symbolUniverse(options);
        List<Region> regions = regions(model, options);
        ReplayFile file = ReplayFile.check(command.file(), universe, model);
        long mine = regions.stream().mapToLong(r -> file.rowsOf(r.name())).sum();
        out.printf(Locale.ROOT, "%s: %,d trades from %s to %s; %,d on the exchanges of %s, %,d of other regions skipped%n",
                file.path(), file.rows(), file.firstTime(), file.lastTime(), mine, options.regions(), file.rows() - mine);
        List<RegionFeed> feeds = new ArrayList<>();
        for (Region region : regions) {
            long rows = file.rowsOf(region.name());
            if (rows == 0) {
                out.println("[" + region.name() + "] no trades on " + region.exchanges() + " in the file: nothing to publish");
                continue;
            }
            String plan = String.format(Locale.ROOT, "replaying %,d trades of %,d symbols at speed %s, event time %s",
                    rows, file.symbolsOf(region.name()).size(), command.speed(), command.eventTime().name().toLowerCase(Locale.ROOT));
            feeds.add(new RegionFeed(region.name(), kafka(options, region), file.symbolsOf(region.name()), plan,
                    start -> file.ticksFor(region, command.speed(), command.eventTime(), start), out));
        }
        if (feeds.isEmpty()) {
            throw new ReplayFileException(file.path() + " has no trades on the exchanges of " + options.regions());
        }
        return FeedRun.run(feeds, options.progress(), stop, out, err);
    }

    /**
     * The regions model, with each {@code --failover} exchange moved to the region that adopted it,
     * so that both commands publish its ticks to that region's Kafka; says so, one line per exchange.
     */
    private static RegionsModel regionsModel(FeedOptions options, PrintStream out) {
        RegionsModel model = options.regionsFile().map(RegionsFile::load).orElseGet(RegionsFile::load);
        for (Map.Entry<String, String> moved : options.failover().entrySet()) {
            String exchange = moved.getKey();
            String adopter = moved.getValue();
            String option = "--failover " + exchange + "=" + adopter + ": ";
            try {
                if (model.homeOf(exchange).map(home -> home.name().equals(adopter)).orElse(false)) {
                    throw new UsageException(option + adopter + " is the home of " + exchange
                            + " already; name the region that adopted it");
                }
                model = model.withExchangeMovedTo(exchange, adopter);
            } catch (InvalidRegionsException e) {
                throw new UsageException(option + e.getMessage());
            }
        }
        for (Map.Entry<String, String> moved : options.failover().entrySet()) {
            out.println(moved.getKey() + " ticks go to " + moved.getValue() + " (failover)"
                    + (options.regions().contains(moved.getValue()) ? ""
                            : "; not published by this feed: " + moved.getValue() + " is not a --region"));
        }
        return model;
    }

    private static SymbolUniverse symbolUniverse(FeedOptions options) {
        return options.symbolsFile().map(SymbolUniverse::load).orElseGet(SymbolUniverse::loadDefault);
    }

    private static List<Region> regions(RegionsModel model, FeedOptions options) {
        List<Region> regions = new ArrayList<>();
        for (String name : options.regions()) {
            try {
                regions.add(model.region(name));
            } catch (InvalidRegionsException e) {
                throw new UsageException("--region: " + e.getMessage());
            }
        }
        return regions;
    }

    private static KafkaSettings kafka(FeedOptions options, Region region) {
        return new KafkaSettings(options.bootstrap().get(region.name()), options.topic(), options.partitions(),
                options.compression(), options.kafkaTimeout(), options.kafkaLogin().map(TickerFeedCli::credential),
                options.kafkaLogin().flatMap(FeedOptions.KafkaLogin::truststore).map(TickerFeedCli::trust));
    }

    private static KafkaCredential credential(FeedOptions.KafkaLogin login) {
        try {
            return KafkaCredential.fromPasswordFile(login.user(), login.passwordFile());
        } catch (IllegalArgumentException e) {
            throw new FeedException(e.getMessage());
        }
    }

    private static KafkaTrust trust(FeedOptions.Truststore truststore) {
        try {
            return truststore.passwordFile().isPresent() ? KafkaTrust.withPasswordFile(truststore.store(), truststore.passwordFile().get())
                    : KafkaTrust.pemFile(truststore.store());
        } catch (IllegalArgumentException e) {
            throw new FeedException(e.getMessage());
        }
    }

    private static String firstLine(String message) {
        return message == null ? "(no message)" : message.lines().findFirst().orElse("(no message)");
    }
}
