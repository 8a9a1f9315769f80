package org.brokerapp.loadtest.run;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.HdrHistogram.Histogram;
import org.brokerapp.client.BrokerClient;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.loadtest.check.CheckResult;
import org.brokerapp.loadtest.check.CorrectnessCheck;
import org.brokerapp.loadtest.check.SeamAudit;
import org.brokerapp.loadtest.deployment.BrokerProcesses;
import org.brokerapp.loadtest.deployment.CqlEndpoint;
import org.brokerapp.loadtest.deployment.Target;
import org.brokerapp.loadtest.measure.BrokerScraper;
import org.brokerapp.loadtest.measure.Counters;
import org.brokerapp.loadtest.measure.ErrorKinds;
import org.brokerapp.loadtest.measure.ExactLatency;
import org.brokerapp.loadtest.measure.FillStreams;
import org.brokerapp.loadtest.measure.LatencyBook;
import org.brokerapp.loadtest.measure.LatencyLog;
import org.brokerapp.loadtest.measure.LatencyWindow;
import org.brokerapp.loadtest.measure.Measures;
import org.brokerapp.loadtest.probe.ResultTable;
import org.brokerapp.loadtest.probe.WindowProbe;
import org.brokerapp.loadtest.prometheus.PrometheusHistogram;
import org.brokerapp.loadtest.report.TimelinePoint;
import org.brokerapp.loadtest.report.WindowResult;
import org.brokerapp.loadtest.workload.AcceptedOrder;
import org.brokerapp.loadtest.workload.AcceptedOrders;
import org.brokerapp.loadtest.workload.FloorWriter;
import org.brokerapp.loadtest.workload.OpenLoop;
import org.brokerapp.loadtest.workload.OrderPlanner;
import org.brokerapp.loadtest.workload.OrderSender;
import org.brokerapp.loadtest.workload.PlannedOrder;
import org.brokerapp.loadtest.workload.PoissonArrivals;
import org.brokerapp.loadtest.workload.RateSchedule;
import org.brokerapp.loadtest.workload.SymbolSet;
import org.brokerapp.loadtest.workload.TickPlanner;
import org.brokerapp.loadtest.workload.TickPublisher;
import org.brokerapp.loadtest.workload.WanFloor;
import org.brokerapp.regions.SymbolUniverse;

/**
 * Drives one target: holds the run's connections (a tick producer per region, a floor session per
 * region, the REST client) and what the run learns (latencies, errors, accepted orders), and
 * applies load levels one after another ({@link #measure}): ticks first, then orders and floor
 * writes, each ramped up; warm-up; the measured window with a progress line every few seconds;
 * then a drain during which only ticks go on. {@link #prime} buys the shares SELL orders need,
 * {@link #check} audits every customer's ledger at the end.
 */
public final class Harness implements AutoCloseable {

    /** A progress line's scrape gives up soon (fills/s then shows "?"); the window's two scrapes wait. */
    private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration WINDOW_SCRAPE_TIMEOUT = Duration.ofSeconds(60);
    /** Rounds of sending the priming orders not yet accepted: the first, and retries a second apart. */
    private static final int PRIMING_ROUNDS = 5;
    /** How early an order is handed to the thread that sends it, which then waits for its intended start (see {@link OpenLoop}). */
    private static final Duration ORDER_LEAD = Duration.ofMillis(5);
    /** Customers whose order updates are streamed in every region for fill-to-customer latency: a few, not one stream each. */
    private static final int STREAMED_CUSTOMERS = 8;
    /** The floor's writes come at Poisson times ({@link PoissonArrivals}), the same ones in every run. */
    private static final long FLOOR_SEED = 11;

    private final Target target;
    private final Progress progress;
    private final Duration progressEvery;
    private final List<WindowProbe> probes;
    private final SymbolSet symbols;
    private final String runId;
    private final LatencyBook latencies = new LatencyBook();
    private Optional<LatencyLog> latencyLog = Optional.empty();
    private final ErrorKinds errors = new ErrorKinds();
    private final Counters counters = new Counters();
    private final AcceptedOrders accepted = new AcceptedOrders();
    private final BrokerClient client;
    private final BrokerScraper scraper;
    private final OrderSender sender;
    private final Map<String, TickPublisher> publishers = new LinkedHashMap<>();
    private final List<FloorWriter> floors = new ArrayList<>();
    private final List<WanFloor> wanFloors = new ArrayList<>();
    private final List<ResultTable> probeTables = new ArrayList<>();
    private int level;

    private Harness(Target target, SymbolSet symbols, String runId, Duration progressEvery, List<WindowProbe> probes, Progress progress) {
        this.target = target;
        this.symbols = symbols;
        this.runId = runId;
        this.progressEvery = progressEvery;
        this.probes = List.copyOf(probes);
        this.progress = progress;
        this.client = new BrokerClient(target.brokerUrls(), target.trust());
        this.scraper = new BrokerScraper(target.brokerInstanceUrls(), target.trust());
        this.sender = new OrderSender(client, latencies, errors, counters, accepted);
    }

    /**
     * Connects to the target: a tick producer per region with symbols, a floor session per region with a
     * CQL endpoint (when {@code floor} is true).
     */
    public static Harness open(Target target, Map<String, Integer> symbolsPerRegion, long seed, boolean floor, String runId,
                               Duration progressEvery, List<WindowProbe> probes, Progress progress) {
        SymbolSet symbols = SymbolSet.choose(SymbolUniverse.loadDefault(), target.regions(), symbolsPerRegion);
        Harness harness = new Harness(target, symbols, runId, progressEvery, probes, progress);
        try {
            long regionSeed = seed;
            for (String region : symbols.regions()) {
                regionSeed++;
                if (!symbols.in(region).isEmpty()) {
                    harness.publishers.put(region, new TickPublisher(region, target.tickKafka(region),
                            new TickPlanner(symbols.in(region), regionSeed), harness.latencies, harness.counters, harness.errors));
                }
                Optional<CqlEndpoint> cql = target.cql(region);
                if (floor && cql.isPresent()) {
                    harness.floors.add(new FloorWriter(region, cql.get(), target.regions(), harness.latencies, harness.counters, harness.errors));
                }
                Optional<Target.WanEcho> echo = target.wanEcho(region);
                if (floor && echo.isPresent()) {
                    try {
                        harness.wanFloors.add(new WanFloor(region, echo.get(), harness.latencies));
                    } catch (IOException e) {
                        progress.warn("no bare round trip into " + region + " (" + echo.get().listen() + ": " + e.getMessage() + "); cross-region"
                                + " figures are set against the configured RTT only");
                    }
                }
            }
            return harness;
        } catch (RuntimeException e) {
            harness.close();
            throw e;
        }
    }

    /** From the next level on, every interval's client latencies also go to {@code directory} as HdrHistogram logs ({@link LatencyLog}). */
    public void logLatenciesTo(Path directory) {
        latencyLog.ifPresent(LatencyLog::close);
        latencyLog = Optional.of(new LatencyLog(directory));
    }

    public SymbolSet symbols() {
        return symbols;
    }

    /**
     * Gives every customer the shares its SELL orders sell from: one marketable BUY LIMIT per customer and
     * portfolio symbol, with ticks flowing, then waits (up to a minute) until they are filled.
     */
    public void prime(org.brokerapp.loadtest.workload.WorkloadSpec spec) throws InterruptedException {
        if (spec.buyShare() >= 1 || spec.ordersPerSecond() == 0) {
            return;
        }
        List<PlannedOrder> orders = new OrderPlanner(spec, symbols, target.regions().names(), runId + "-p").primingOrders();
        progress.step("priming: " + orders.size() + " BUY orders so that " + spec.customers() + " customers hold the shares they sell");
        ErrorKinds primeErrors = new ErrorKinds();
        Counters primeCounters = new Counters();
        AcceptedOrders primed = new AcceptedOrders();
        OrderSender primer = new OrderSender(client, new LatencyBook(), primeErrors, primeCounters, primed);
        List<OpenLoop> ticks = startTicks(spec.ticksPerSecond(), 0);
        try {
            awaitFirstRound(ticks);
            long period = Math.max(1, Math.round(1000 / Math.min(50, Math.max(5, spec.ordersPerSecond()))));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            List<PlannedOrder> pending = orders;
            int retried = 0;
            long refused = 0;
            for (int round = 1; !pending.isEmpty() && round <= PRIMING_ROUNDS && System.nanoTime() < deadline; round++) {
                if (round > 1) {
                    // a 503 (an account being handed over, a write not durable in time) asks for a retry with the same
                    // clientOrderId, which never places twice; a refusal (4xx) would be refused again
                    retried += pending.size();
                    Thread.sleep(1_000);
                }
                long answeredBefore = primeCounters.ordersAccepted.sum() + primeCounters.ordersFailed.sum();
                for (PlannedOrder order : pending) {
                    primer.send(order, System.nanoTime());
                    Thread.sleep(period);
                }
                while (primeCounters.ordersAccepted.sum() + primeCounters.ordersFailed.sum() - answeredBefore < pending.size()
                        && System.nanoTime() < deadline) {
                    Thread.sleep(200);
                }
                Set<String> done = primed.byCustomer().values().stream().flatMap(List::stream)
                        .map(a -> a.planned().clientOrderId()).collect(Collectors.toSet());
                pending = pending.stream().filter(o -> !done.contains(o.clientOrderId())).toList();
                refused += pending.stream().filter(primer::refused).count();
                pending = pending.stream().filter(o -> !primer.refused(o)).toList();
            }
            List<AcceptedOrder> open = new ArrayList<>(primed.byCustomer().values().stream().flatMap(List::stream).toList());
            while (!open.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(2_000);
                open.removeIf(this::filled);
            }
            primed.byCustomer().values().forEach(list -> list.forEach(accepted::add));
            progress.step(String.format("priming done: %d accepted, %d still open, %d refused, %d not placed; %d sent again; errors %s%s",
                    primeCounters.ordersAccepted.sum(), open.size(), refused, pending.size(), retried, primeErrors.snapshot(),
                    primeErrors.examples().isEmpty() ? "" : ", first of each: " + primeErrors.examples().values()));
        } finally {
            ticks.forEach(OpenLoop::close);
        }
    }

    private boolean filled(AcceptedOrder order) {
        PlannedOrder p = order.planned();
        try {
            return "FILLED".equals(client.get(p.symbol().home(), p.customerId(), PlannedOrder.password(p.customer()),
                    "/api/orders/" + order.orderId()).path("status").asString());
        } catch (Exception e) {
            return false;
        }
    }

    /** Applies one load level: ramp-up, warm-up, measured window, drain; returns the window. */
    public WindowResult measure(org.brokerapp.loadtest.workload.WorkloadSpec spec) throws InterruptedException {
        level++;
        OrderPlanner planner = new OrderPlanner(spec, symbols, target.regions().names(), runId + "-" + level);
        double ramp = spec.rampUp().toMillis() / 1000.0;
        List<OpenLoop> ticks = startTicks(spec.ticksPerSecond(), ramp);
        List<OpenLoop> loops = new ArrayList<>(ticks);
        Map<String, String> streamed = new LinkedHashMap<>();
        for (int customer = 1; customer <= Math.min(STREAMED_CUSTOMERS, spec.customers()); customer++) {
            streamed.put(PlannedOrder.customerId(customer), PlannedOrder.password(customer));
        }
        try (FillStreams fills = FillStreams.open(client, target.regions().names(), streamed, latencies, errors)) {
            awaitFirstRound(ticks);
            progress.step(String.format("load: %.0f orders/s (%s, %.0f%% BUY, %.0f%% marketable, %.0f%% cross-region), %.0f ticks/s over %d symbols,"
                            + " ~%.0f trades/s, %.0f floor writes/s, %d update streams; ramp-up %d s, warm-up %d s, measured %d s",
                    spec.ordersPerSecond(), spec.mix(), spec.buyShare() * 100, spec.marketableShare() * 100, spec.crossRegionShare() * 100,
                    spec.ticksPerSecond(), symbols.size(), spec.expectedTradesPerSecond(), floors.isEmpty() ? 0 : spec.floorWritesPerSecond(),
                    fills.open(), spec.rampUp().toSeconds(), spec.warmUp().toSeconds(), spec.duration().toSeconds()));
            OpenLoop orders = null;
            if (spec.ordersPerSecond() > 0) {
                orders = new OpenLoop("orders", new RateSchedule(spec.ordersPerSecond(), ramp), ORDER_LEAD, intended -> sender.send(planner.next(), intended));
                loops.add(orders);
            }
            OpenLoop floorLoop = floorLoop(spec.floorWritesPerSecond(), ramp);
            if (floorLoop != null) {
                loops.add(floorLoop);
            }
            WindowResult window = new Phases(spec, loops).run();
            if (orders != null) {
                orders.close();
            }
            if (floorLoop != null) {
                floorLoop.close();
            }
            if (!spec.drain().isZero()) {
                progress.step("drain: ticks only for " + spec.drain().toSeconds() + " s, so the last marketable orders can fill");
                Thread.sleep(spec.drain().toMillis());
            }
            return window;
        } finally {
            loops.forEach(OpenLoop::close);
        }
    }

    /** The correctness check, read through the first region's broker once nothing moves any more. */
    public CheckResult check(BigDecimal openingCash) throws InterruptedException {
        Thread.sleep(3_000); // the last fills replicate to every DC
        List<String> regions = target.regions().names();
        SeamAudit seams = new SeamAudit(client, customer -> OrderPlanner.homeOf(customer, regions));
        return new CorrectnessCheck(client, regions.get(0), openingCash, seams, progress).run(accepted);
    }

    /** The first example of each kind of failure of the run so far (which order, the answer's detail). */
    public Map<String, String> errorExamples() {
        return errors.examples();
    }

    /**
     * Every probe's idle baseline: {@code length} with everything up, no orders and no ticks (before
     * priming), once the servers have settled. Measured straight after the brokers started, "idle"
     * held their start-up work (compilation, leases taken, Cassandra's first compactions): twice the
     * rate of a stack at rest, which made every "above idle" figure too low. Where a probe meters the
     * target's CPU the harness waits until its rate stops falling ({@link Settling}: at least
     * {@code length}, at most ten minutes); elsewhere it waits {@code length}.
     *
     * <p>The floor writes throughout, at {@code floorWritesPerSecond}: it is the harness's instrument,
     * a sixth of Cassandra's mutations at the demo's load, and its cost is not the orders'.
     *
     * @return how the settling went, for the report's notes (empty when no baseline was measured)
     */
    public Optional<String> idleBaseline(Duration length, double floorWritesPerSecond) throws InterruptedException {
        if (length.isZero() || probes.isEmpty()) {
            return Optional.empty();
        }
        try (OpenLoop floor = floorLoop(floorWritesPerSecond, 0)) {
            String floorNote = floor == null ? "" : String.format(Locale.ROOT, ", the floor writing %.0f/s as it will beside the load", floorWritesPerSecond);
            String settled = settle(Settling.after(length, Runtime.getRuntime().availableProcessors()), floorNote);
            progress.step("idle baseline: " + length.toSeconds() + " s with every process up, no orders and no ticks" + floorNote);
            probes.forEach(WindowProbe::idleStarted);
            Thread.sleep(length.toMillis());
            probes.forEach(WindowProbe::idleEnded);
            return Optional.of(settled);
        }
    }

    /** Waits until the target's CPU rate stops falling, or a fixed {@code rule.atLeast()} where no probe meters it; says how it went. */
    private String settle(Settling rule, String floorNote) throws InterruptedException {
        Optional<WindowProbe> meter = probes.stream().filter(p -> p.cpuSinceLastAsked().isPresent()).findFirst();
        if (meter.isEmpty()) {
            progress.step("settling: " + rule.atLeast().toSeconds() + " s for the servers' start-up work to end before the idle baseline" + floorNote);
            Thread.sleep(rule.atLeast().toMillis());
            return "idle baseline after " + rule.atLeast().toSeconds() + " s of settling (no probe meters the target's CPU)";
        }
        progress.step("settling: until the servers' CPU rate stops falling (" + rule.step().toSeconds() + "-s steps, at least " + rule.atLeast().toSeconds()
                + " s, at most " + rule.atMost().toMinutes() + " min) before the idle baseline" + floorNote);
        List<Double> rates = new ArrayList<>();
        long started = System.nanoTime();
        while (true) {
            long stepStarted = System.nanoTime();
            Thread.sleep(rule.step().toMillis());
            Duration burned = meter.get().cpuSinceLastAsked().orElseThrow();
            rates.add(burned.toNanos() / (double) (System.nanoTime() - stepStarted));
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            Settling.Verdict verdict = rule.judge(rates, elapsed);
            String rate = String.format(Locale.ROOT, "%.1f %% of one core", 100 * rates.get(rates.size() - 1));
            switch (verdict) {
                case SETTLING -> progress.step("settling: " + elapsed.toSeconds() + " s, the servers at " + rate);
                case SETTLED -> {
                    progress.step("settled after " + elapsed.toSeconds() + " s, the servers at " + rate);
                    return "idle baseline after " + elapsed.toSeconds() + " s of settling, when the servers' CPU rate had stopped falling (" + rate + ")";
                }
                case GAVE_UP -> {
                    progress.warn("the servers had not settled after " + elapsed.toSeconds() + " s (" + rate + ", still falling or at the machine's cores)"
                            + ": the idle baseline may hold start-up work, and \"above idle\" figures read too low");
                    return "idle baseline after " + elapsed.toSeconds() + " s of settling, the servers not settled (" + rate
                            + ", still falling or at the machine's cores): \"above idle\" figures may read too low";
                }
            }
        }
    }

    /** The floor's writes at {@code perSecond}, spread over the regions' floor writers; null when there is no floor. */
    private OpenLoop floorLoop(double perSecond, double rampSeconds) {
        if (floors.isEmpty() || perSecond <= 0) {
            return null;
        }
        int[] next = {0};
        return new OpenLoop("floor", new PoissonArrivals(new RateSchedule(perSecond, rampSeconds), FLOOR_SEED),
                intended -> floors.get(next[0]++ % floors.size()).write(intended));
    }

    public List<ResultTable> probeTables() {
        return List.copyOf(probeTables);
    }

    private List<OpenLoop> startTicks(double ticksPerSecond, double rampSeconds) {
        List<OpenLoop> loops = new ArrayList<>();
        publishers.forEach((region, publisher) -> {
            double rate = ticksPerSecond * symbols.in(region).size() / symbols.size();
            loops.add(new OpenLoop("ticks-" + region, new RateSchedule(rate, rampSeconds), publisher::publish));
        });
        return loops;
    }

    /** Until every symbol has had a tick (so MARKET orders find a price), and a second for the brokers to read it. */
    private void awaitFirstRound(List<OpenLoop> ticks) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        int i = 0;
        for (String region : publishers.keySet()) {
            OpenLoop loop = ticks.get(i++);
            while (loop.fired() < symbols.in(region).size() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        }
        Thread.sleep(1_000);
    }

    @Override
    public void close() {
        latencyLog.ifPresent(LatencyLog::close);
        publishers.values().forEach(TickPublisher::close);
        floors.forEach(FloorWriter::close);
        wanFloors.forEach(WanFloor::close);
        client.close();
    }

    /** Ramp-up, warm-up and the measured window of one level, with a progress line per interval. */
    private final class Phases {

        private final org.brokerapp.loadtest.workload.WorkloadSpec spec;
        private final List<OpenLoop> loops;
        private final List<TimelinePoint> timeline = new ArrayList<>();
        private final LatencyWindow window = new LatencyWindow();
        private final LatencyWindow phase = new LatencyWindow();
        private final long start = System.nanoTime();
        private final double rampEnd;
        private final double warmEnd;
        private final double end;

        Phases(org.brokerapp.loadtest.workload.WorkloadSpec spec, List<OpenLoop> loops) {
            this.spec = spec;
            this.loops = loops;
            this.rampEnd = spec.rampUp().toMillis() / 1000.0;
            this.warmEnd = rampEnd + spec.warmUp().toMillis() / 1000.0;
            this.end = warmEnd + spec.duration().toMillis() / 1000.0;
        }

        WindowResult run() throws InterruptedException {
            TreeSet<Double> boundaries = new TreeSet<>();
            double every = progressEvery.toMillis() / 1000.0;
            for (int k = 1; k * every < end; k++) {
                double t = k * every;
                if (Math.abs(t - rampEnd) > 0.5 && Math.abs(t - warmEnd) > 0.5 && end - t > 0.5) {
                    boundaries.add(t);
                }
            }
            boundaries.add(rampEnd);
            boundaries.add(warmEnd);
            boundaries.add(end);
            boundaries.remove(0.0);
            latencies.sampleInterval(); // drop what the priming or a previous level left behind

            Counters.Snapshot previous = counters.snapshot();
            BrokerScraper.Scrape previousScrape = scraper.scrape(SCRAPE_TIMEOUT);
            BrokerScraper.Scrape phaseScrape = previousScrape;
            BrokerScraper.Scrape windowStartScrape = null;
            Counters.Snapshot windowStart = null;
            Map<String, Long> errorsAtWindowStart = Map.of();
            if (warmEnd == 0) {
                windowStartScrape = previousScrape;
                windowStart = previous;
                errorsAtWindowStart = errors.snapshot();
                probes.forEach(WindowProbe::windowStarted);
            }
            BrokerScraper.Scrape windowEndScrape = null;
            Counters.Snapshot windowEnd = null;
            Map<String, Long> errorsAtWindowEnd = Map.of();
            for (double boundary : boundaries) {
                sleepUntil(boundary);
                // counters and latencies first, they are instant: a slow broker scrape must not shift the window
                Counters.Snapshot now = counters.snapshot();
                Map<String, Long> errorsNow = errors.snapshot();
                // when the snapshot was taken, not the boundary: a slow scrape before it (a dead broker's, up to its timeout) makes it late
                double at = (System.nanoTime() - start) / 1e9;
                String phaseName = boundary <= rampEnd ? "ramp-up" : boundary <= warmEnd ? "warm-up" : "measured";
                Map<String, Histogram> interval = latencies.sampleInterval();
                latencyLog.ifPresent(log -> log.append(interval, phaseName + "-" + Math.round(spec.ordersPerSecond()) + "ops"));
                phase.add(interval);
                if (phaseName.equals("measured")) {
                    window.add(interval);
                }
                boolean windowBoundary = boundary == warmEnd || boundary == end;
                if (boundary == warmEnd) {
                    // with the counters, before the scrape (up to its timeout): a drill's "into the window" is the counters' window
                    probes.forEach(WindowProbe::windowStarted);
                }
                BrokerScraper.Scrape scrape = scraper.scrape(windowBoundary ? WINDOW_SCRAPE_TIMEOUT : SCRAPE_TIMEOUT);
                Counters.Snapshot delta = now.minus(previous);
                double fills = scrape.complete() && previousScrape.complete() ? scrape.minus(previousScrape).totalFills() / delta.seconds() : -1;
                timeline.add(new TimelinePoint(round(at), phaseName, delta.ordersSent() / delta.seconds(),
                        delta.ordersAccepted() / delta.seconds(), delta.ticksSent() / delta.seconds(), fills,
                        (delta.ordersFailed() + delta.ticksFailed() + delta.floorFailed()) / delta.seconds()));
                double phaseStart = phaseName.equals("ramp-up") ? 0 : phaseName.equals("warm-up") ? rampEnd : warmEnd;
                double phaseLength = (phaseName.equals("ramp-up") ? rampEnd : phaseName.equals("warm-up") ? warmEnd : end) - phaseStart;
                BrokerScraper.Scrape sincePhase = scrape.minus(phaseScrape);
                Histogram exactTickToFill = new Histogram(3);
                sincePhase.exact(ExactLatency.TICK_TO_FILL).values().forEach(exactTickToFill::add);
                PrometheusHistogram tickToFill = merged(sincePhase.tickToFill());
                boolean exact = !sincePhase.exact(ExactLatency.TICK_TO_FILL).isEmpty();
                double p99TickToFill = exact ? (exactTickToFill.getTotalCount() == 0 ? -1 : exactTickToFill.getValueAtPercentile(99) / 1000.0)
                        : (tickToFill.count() == 0 ? -1 : tickToFill.percentileMillis(0.99));
                progress.step(LiveProgress.line(phaseName, boundary - phaseStart, phaseLength, delta, fills, errors.total(),
                        p99(phase.totals(), Measures.PLACEMENT), p99(phase.totals(), Measures.MARKET), p99TickToFill, !exact));
                if (boundary == warmEnd) {
                    windowStartScrape = scrape;
                    windowStart = now;
                    errorsAtWindowStart = errorsNow;
                }
                if (boundary == rampEnd || boundary == warmEnd) {
                    phase.totals().clear();
                    phaseScrape = scrape;
                }
                if (boundary == end) {
                    windowEndScrape = scrape;
                    windowEnd = now;
                    errorsAtWindowEnd = errorsNow;
                }
                previous = now;
                previousScrape = scrape;
            }
            Counters.Snapshot measured = windowEnd.minus(windowStart);
            BrokerScraper.Scrape brokerWindow = windowEndScrape.minus(windowStartScrape);
            double seconds = measured.seconds();
            WindowProbe.WindowFacts facts = new WindowProbe.WindowFacts(seconds, brokerWindow.totalFills(), measured.ordersAccepted());
            for (WindowProbe probe : probes) {
                probeTables.addAll(probe.windowEnded(facts));
            }
            long lag = loops.stream().mapToLong(OpenLoop::maxLagMillis).max().orElse(0);
            return WindowResults.assemble(spec, target, seconds, measured, brokerWindow, window.totals(),
                    ErrorKinds.difference(errorsAtWindowEnd, errorsAtWindowStart), timeline, lag);
        }

        private void sleepUntil(double secondsAfterStart) throws InterruptedException {
            long wait = start + Math.round(secondsAfterStart * 1e9) - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
        }
    }

    static PrometheusHistogram merged(Map<String, PrometheusHistogram> byRegion) {
        return byRegion.values().stream().reduce(PrometheusHistogram.EMPTY, PrometheusHistogram::plus);
    }

    /** p99 in ms of every measure whose name starts with {@code prefix}, merged; -1 if none. */
    static double p99(Map<String, Histogram> totals, String prefix) {
        Histogram merged = new Histogram(3);
        totals.forEach((name, h) -> {
            if (name.startsWith(prefix)) {
                merged.add(h);
            }
        });
        return merged.getTotalCount() == 0 ? -1 : merged.getValueAtPercentile(99) / 1000.0;
    }

    private static double round(double seconds) {
        return Math.round(seconds * 10) / 10.0;
    }

    static void sleep(long millis) {
        BrokerProcesses.sleep(millis);
    }
}
