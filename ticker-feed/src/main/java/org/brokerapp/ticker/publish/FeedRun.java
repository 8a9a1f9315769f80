package org.brokerapp.ticker.publish;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs the feeds of one process together, one thread per region, with a progress line per region
 * every few seconds. All feeds prepare (topic, producer) before any sends, so a region whose Kafka
 * is unreachable fails the run before a single tick is published anywhere.
 */
public final class FeedRun {

    private FeedRun() {
    }

    /**
     * @param progressEvery interval of the progress lines; zero for none
     * @return the exit status: 0 when every tick was delivered, 1 otherwise (each problem one line on {@code err})
     */
    public static int run(List<RegionFeed> feeds, Duration progressEvery, BooleanSupplier stop, PrintStream out, PrintStream err) {
        List<RegionFeed> prepared = new ArrayList<>();
        for (RegionFeed feed : feeds) {
            try {
                feed.prepare();
                prepared.add(feed);
            } catch (FeedException e) {
                prepared.forEach(RegionFeed::abort);
                err.println("ticker-feed: " + feed.region() + ": " + e.getMessage());
                return 1;
            }
        }

        if (stop.getAsBoolean()) {
            prepared.forEach(RegionFeed::abort);
            out.println("stopped before the first tick");
            return 0;
        }

        Map<String, RegionFeed.Outcome> outcomes = new ConcurrentHashMap<>();
        Map<String, RuntimeException> failures = new ConcurrentHashMap<>();
        List<Thread> threads = new ArrayList<>();
        for (RegionFeed feed : feeds) {
            Thread thread = new Thread(() -> {
                try {
                    outcomes.put(feed.region(), feed.run(stop));
                } catch (RuntimeException e) {
                    failures.put(feed.region(), e);
                }
            }, "ticker-feed-" + feed.region());
            threads.add(thread);
            thread.start();
        }
        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ticker-feed-progress");
            t.setDaemon(true);
            return t;
        });
        if (!progressEvery.isZero()) {
            long millis = progressEvery.toMillis();
            reporter.scheduleAtFixedRate(() -> feeds.forEach(f -> {
                String line = f.progress();
                if (!line.isEmpty()) {
                    out.println(line);
                }
            }), millis, millis, TimeUnit.MILLISECONDS);
        }
        try {
            for (Thread thread : threads) {
                thread.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("ticker-feed: interrupted");
            return 1;
        } finally {
            reporter.shutdownNow();
        }

        int status = 0;
        for (RegionFeed feed : feeds) {
            RuntimeException failure = failures.get(feed.region());
            RegionFeed.Outcome outcome = outcomes.get(feed.region());
            if (failure != null) {
                err.println("ticker-feed: " + feed.region() + ": " + failure.getClass().getSimpleName() + ": " + ErrorMessages.root(failure));
                status = 1;
            } else if (outcome.undelivered() > 0) {
                err.println(String.format(Locale.ROOT, "ticker-feed: %s: %,d of %,d ticks were not delivered (see the errors line)",
                        feed.region(), outcome.undelivered(), outcome.sent()));
                status = 1;
            }
        }
        return status;
    }
}
