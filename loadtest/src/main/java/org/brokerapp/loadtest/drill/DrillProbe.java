package org.brokerapp.loadtest.drill;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.brokerapp.infra.host.Progress;
import org.brokerapp.loadtest.probe.ResultTable;
import org.brokerapp.loadtest.probe.WindowProbe;

/**
 * Runs one {@link Drill} inside the first measured window, on a thread of its own so that the load
 * goes on meanwhile, and reports when the fault began and ended and how long recovery took. What
 * the fault cost (errors by kind, lost orders, double fills) is in the run's own summary and
 * correctness check, which cover the same window.
 */
public final class DrillProbe implements WindowProbe {

    /** How long the window's end waits for a drill still running (a broker still starting). */
    private static final Duration FINISH_TIMEOUT = Duration.ofMinutes(10);

    private final Drill drill;
    private final Faults faults;
    private final Progress progress;
    private final List<ResultTable.Row> rows = new ArrayList<>();
    private Thread running;
    private long windowStartNanos;
    private volatile String failure;
    /** When, into the window, the last recovery the rows report ended (a server ready again, a cut healed). */
    private volatile long recoveredNanos;

    public DrillProbe(Drill drill, Faults faults, Progress progress) {
        this.drill = drill;
        this.faults = faults;
        this.progress = progress;
    }

    @Override
    public void windowStarted() {
        if (running != null) {
            return;
        }
        windowStartNanos = System.nanoTime();
        running = new Thread(this::run, "drill-" + drill.kind().key());
        running.setDaemon(true);
        running.start();
    }

    private void run() {
        try {
            Thread.sleep(drill.at().toMillis());
            switch (drill.kind()) {
                case BROKER_KILL -> killBrokerAndRestart();
                case KAFKA_KILL -> killAndRestart("Kafka", () -> faults.killKafka(drill.region()), () -> faults.restartKafka(drill.region()));
                case CASSANDRA_KILL -> killAndRestart("Cassandra node", () -> faults.killCassandraNode(drill.region()),
                        () -> faults.restartCassandraNode(drill.region()));
                case DISK_FULL, COMMITLOG_FULL -> fillAndFree(drill.filledDisk().orElseThrow().description());
                case REGION_CUT -> cutAndHeal();
                case CLOCK_SKEW -> skew();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted";
        } catch (RuntimeException e) {
            failure = e.getMessage();
        }
    }

    /** Kills {@code what} (the region's Kafka or a Cassandra node), leaves it down for the drill's length, starts it again. */
    private void killAndRestart(String what, Runnable kill, Supplier<Duration> restart) throws InterruptedException {
        String server = "the " + drill.region() + " " + what;
        progress.step("DRILL: kill -9 " + server);
        long killed = sinceWindowStart();
        kill.run();
        Thread.sleep(drill.length().toMillis());
        progress.step("DRILL: starting " + server + " again");
        Duration startup = restart.get();
        long ready = sinceWindowStart();
        progress.step("DRILL: " + server + " is ready again, " + Drill.seconds(Duration.ofNanos(ready - killed)) + " after the kill");
        rows.add(row(Character.toUpperCase(what.charAt(0)) + what.substring(1) + " killed (SIGKILL)", killed, ready, "start-up " + Drill.seconds(startup)));
    }

    /**
     * Kills the region's broker; where it has other instances, waits until they have taken over what it decided. Then
     * starts it again after the drill's length.
     */
    private void killBrokerAndRestart() throws InterruptedException {
        String server = "the " + drill.region() + " broker";
        progress.step("DRILL: kill -9 " + server);
        long killed = sinceWindowStart();
        faults.killBroker(drill.region());
        Optional<Duration> takeOver = faults.awaitBrokerTakeOver(drill.region());
        takeOver.ifPresent(t -> {
            progress.step("DRILL: the surviving instances took over " + Drill.seconds(t) + " after the kill");
            rows.add(row("Broker instance killed (SIGKILL); the others take over", killed, killed + t.toNanos(), "take-over " + Drill.seconds(t)));
        });
        Thread.sleep(Math.max(0, drill.length().toMillis() - takeOver.map(Duration::toMillis).orElse(0L)));
        progress.step("DRILL: starting " + server + " again");
        Duration startup = faults.restartBroker(drill.region());
        long ready = sinceWindowStart();
        progress.step("DRILL: " + server + " is ready again, " + Drill.seconds(Duration.ofNanos(ready - killed)) + " after the kill");
        rows.add(row(takeOver.isPresent() ? "Killed instance back (ready)" : "Broker killed (SIGKILL)", killed, ready,
                "start-up " + Drill.seconds(startup)));
    }

    /** Fills a Cassandra node's data disk, leaves it full for the drill's length, frees it and restarts the node. */
    private void fillAndFree(String disk) throws InterruptedException {
        progress.step("DRILL: filling the " + disk + " of a " + drill.region() + " Cassandra node");
        long filled = sinceWindowStart();
        String outcome = faults.fillCassandraDisk(drill.region());
        progress.step("DRILL: " + outcome);
        Thread.sleep(drill.length().toMillis());
        progress.step("DRILL: freeing the disk and restarting the node");
        Duration restart = faults.freeCassandraDisk(drill.region());
        long ready = sinceWindowStart();
        progress.step("DRILL: the node is up again, " + Drill.seconds(Duration.ofNanos(ready - filled)) + " after the fill");
        rows.add(row("Cassandra " + disk + " full", filled, ready, outcome + "; freed and restarted in " + Drill.seconds(restart)));
    }

    private void cutAndHeal() throws InterruptedException {
        progress.step("DRILL: cutting " + drill.region() + " off the WAN for " + Drill.seconds(drill.length()));
        long cut = sinceWindowStart();
        faults.cut(drill.region());
        try {
            Thread.sleep(drill.length().toMillis());
        } finally {
            faults.heal(drill.region());
        }
        long healed = sinceWindowStart();
        progress.step("DRILL: " + drill.region() + " healed");
        rows.add(row("WAN cut", cut, healed, "-"));
    }

    /** Steps the broker's clock ahead and leaves it there: a step back would move its monotonic clock back too ({@code BrokerClocks}). */
    private void skew() {
        progress.step("DRILL: stepping the " + drill.region() + " broker's clock " + Drill.seconds(Drill.CLOCK_STEP) + " ahead until the run ends");
        long stepped = sinceWindowStart();
        faults.stepBrokerClock(drill.region(), Drill.CLOCK_STEP);
        rows.add(row("Broker clock " + Drill.seconds(Drill.CLOCK_STEP) + " ahead", stepped, stepped, "until the run ends"));
    }

    private long sinceWindowStart() {
        return System.nanoTime() - windowStartNanos;
    }

    private ResultTable.Row row(String fault, long fromNanos, long toNanos, String note) {
        recoveredNanos = Math.max(recoveredNanos, toNanos);
        return new ResultTable.Row(fault, List.of(Drill.seconds(Duration.ofNanos(fromNanos)), Drill.seconds(Duration.ofNanos(toNanos)),
                Drill.seconds(Duration.ofNanos(toNanos - fromNanos)), note));
    }

    @Override
    public List<ResultTable> windowEnded(WindowFacts facts) {
        if (running == null) {
            return List.of();
        }
        try {
            running.join(FINISH_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String note;
        if (running.isAlive()) {
            note = "the drill did not finish within " + FINISH_TIMEOUT.toMinutes() + " min of the window's end";
        } else if (failure != null) {
            note = "the drill failed: " + failure;
        } else if (rows.isEmpty()) {
            note = "the fault did not happen";
        } else {
            Duration window = Duration.ofMillis(Math.round(facts.seconds() * 1000));
            Duration recovered = Duration.ofNanos(recoveredNanos);
            if (drill.at().compareTo(window) >= 0) {
                note = "the fault began after the " + Drill.seconds(window) + " window: the window's figures do not cover it";
            } else if (recovered.compareTo(window) > 0) {
                // a broker's restart under load takes minutes here: its hand-back is then load the window never measured
                note = "the recovery ended " + Drill.seconds(recovered.minus(window)) + " after the " + Drill.seconds(window)
                        + " window: errors and the correctness check cover the fault but not the return (run with --duration over "
                        + Drill.seconds(recovered.plusSeconds(30)) + " to cover it)";
            } else {
                note = "errors by kind: the summary; lost orders and double fills: the correctness check (both cover the "
                        + Drill.seconds(window) + " window)";
            }
        }
        return List.of(new ResultTable("Drill: " + drill.describe(), "fault", List.of("began (into the window)", "over", "lasted", "recovery"),
                List.copyOf(rows), note));
    }
}
