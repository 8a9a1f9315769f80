package org.brokerapp.loadtest;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.brokerapp.infra.LocalStack;
import org.brokerapp.infra.Progress;
import org.brokerapp.infra.StackSettings;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.Tick;
import org.brokerapp.ticker.TickCodec;
import org.brokerapp.ticker.Topics;

/**
 * The published prototype's experiment, on this system: ticks at 600/s into us-east-1, limit
 * orders at 300/s over REST of which two thirds are marketable (about 200 trades/s), for a
 * duration after a warm-up. Ticker-to-fill comes from the broker's own histogram (tick event time
 * to fill durable), scraped before and after the window; in the same window the harness times a
 * bare LOCAL_QUORUM write at 200/s against the same cluster, the floor every figure is compared to.
 *
 * <p>Usage: {@code loadtest/bin/prototype-load [--duration 60] [--warmup 20] [--ticks 600] [--orders 300]}
 */
public final class PrototypeLoad {

    private static final String REGION = "us-east-1";
    private static final int CUSTOMERS = 200;
    private static final int SYMBOLS = 60;

    private final LocalStack stack;
    private final BrokerProcesses brokers;
    private final Progress progress;
    private final List<Listing> symbols;
    private final Map<String, AtomicLong> sequences = new ConcurrentHashMap<>();
    private final Map<String, BigDecimal> prices = new ConcurrentHashMap<>();
    private final Recorder placement = new Recorder(3);
    private final Recorder bareWrite = new Recorder(3);
    private final AtomicLong errors = new AtomicLong();
    private final Map<String, AtomicLong> errorKinds = new ConcurrentHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

    private PrototypeLoad(LocalStack stack, BrokerProcesses brokers, Progress progress) {
        this.stack = stack;
        this.brokers = brokers;
        this.progress = progress;
        SymbolUniverse universe = SymbolUniverse.loadDefault();
        this.symbols = universe.homedIn(stack.regions().region(REGION)).subList(0, SYMBOLS);
        symbols.forEach(l -> prices.put(l.symbol(), l.price()));
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = Options.parse(args);
        int duration = Integer.parseInt(options.getOrDefault("duration", "60"));
        int warmup = Integer.parseInt(options.getOrDefault("warmup", "20"));
        double ticks = Double.parseDouble(options.getOrDefault("ticks", "600"));
        double orders = Double.parseDouble(options.getOrDefault("orders", "300"));
        Path workDir = Path.of(options.getOrDefault("work-dir", "loadtest/target/stack"));
        Path jar = Path.of(options.getOrDefault("broker-jar", "broker-service/target/broker-service-0.1.0-SNAPSHOT.jar"));
        if (!Files.exists(jar)) {
            System.err.println("prototype-load: broker jar " + jar + " not found; build with ./mvnw -q -pl loadtest -am install -DskipTests");
            System.exit(1);
        }
        Progress progress = new Progress(System.out);
        try (LocalStack stack = LocalStack.start(StackSettings.defaults(workDir, 5), true, "--work-dir " + workDir.toAbsolutePath() + " --instance 5", progress)) {
            createTicksTopics(stack);
            try (BrokerProcesses brokers = BrokerProcesses.start(stack, jar, workDir.resolve("logs"), CUSTOMERS, progress)) {
                new PrototypeLoad(stack, brokers, progress).run(ticks, orders, warmup, duration);
            }
        }
    }

    private void run(double ticksPerSecond, double ordersPerSecond, int warmupSeconds, int durationSeconds) throws Exception {
        try (CqlSession session = stack.cqlSession(REGION);
             KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers(REGION),
                     ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0), new StringSerializer(), new ByteArraySerializer())) {
            session.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS bench WITH replication = "
                    + stack.regions().networkTopologyReplication()).setTimeout(Duration.ofSeconds(30)));
            session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS bench.bare_writes (id bigint PRIMARY KEY, at timestamp, payload text)")
                    .setTimeout(Duration.ofSeconds(30)));
            PreparedStatement write = session.prepare("INSERT INTO bench.bare_writes (id, at, payload) VALUES (?, ?, ?)");
            AtomicLong writeIds = new AtomicLong();
            Random random = new Random(1);
            String url = brokers.url(REGION) + "/api/orders";
            progress.step(String.format("load: %.0f ticks/s, %.0f orders/s (2/3 marketable), %.0f bare writes/s; warm-up %d s, then %d s measured",
                    ticksPerSecond, ordersPerSecond, ordersPerSecond * 2 / 3, warmupSeconds, durationSeconds));
            try (OpenLoop tickLoop = new OpenLoop("ticks", ticksPerSecond, intended -> tick(producer, random));
                 OpenLoop orderLoop = new OpenLoop("orders", ordersPerSecond, intended -> order(url, intended, random));
                 OpenLoop writeLoop = new OpenLoop("bare-writes", ordersPerSecond * 2 / 3, intended ->
                         session.executeAsync(write.bind(writeIds.incrementAndGet(), Instant.now(), "x".repeat(100)))
                                 .whenComplete((rs, e) -> record(bareWrite, intended, e)))) {
                report(warmupSeconds, "warm-up");
                placement.reset();
                bareWrite.reset();
                PrometheusHistogram tickToFillBefore = scrape("broker_fill_tick_to_fill_seconds");
                PrometheusHistogram receiptBefore = scrape("broker_fill_receipt_to_fill_seconds");
                long start = System.nanoTime();
                long ordersAtStart = orderLoop.fired();
                report(durationSeconds, "measured");
                Histogram placed = placement.getIntervalHistogram();
                Histogram floor = bareWrite.getIntervalHistogram();
                PrometheusHistogram tickToFill = scrape("broker_fill_tick_to_fill_seconds").minus(tickToFillBefore);
                PrometheusHistogram receiptToFill = scrape("broker_fill_receipt_to_fill_seconds").minus(receiptBefore);
                double seconds = (System.nanoTime() - start) / 1e9;
                summarize(seconds, (orderLoop.fired() - ordersAtStart) / seconds, tickToFill, receiptToFill, placed, floor,
                        Math.max(tickLoop.maxLagMillis(), orderLoop.maxLagMillis()));
            }
        }
    }

    private void tick(KafkaProducer<String, byte[]> producer, Random random) {
        Listing listing = symbols.get(random.nextInt(symbols.size()));
        BigDecimal price = prices.get(listing.symbol());
        long sequence = sequences.computeIfAbsent(listing.symbol(), s -> new AtomicLong()).incrementAndGet();
        producer.send(new ProducerRecord<>(Topics.TICKS, listing.symbol(),
                TickCodec.encode(new Tick(listing.symbol(), listing.exchange(), price, 100, sequence, Instant.now()))),
                (metadata, e) -> {
                    if (e != null) {
                        errors.incrementAndGet();
                    }
                });
    }

    /** Two thirds buy at 1 % above the price (filled by the symbol's next tick), one third rests at half the price. */
    private void order(String url, long intended, Random random) {
        Listing listing = symbols.get(random.nextInt(symbols.size()));
        boolean marketable = random.nextInt(3) != 0;
        BigDecimal limit = prices.get(listing.symbol()).multiply(marketable ? new BigDecimal("1.01") : new BigDecimal("0.5")).setScale(2, RoundingMode.DOWN);
        int customer = 1 + random.nextInt(CUSTOMERS);
        String body = "{\"clientOrderId\":\"p-" + intended + "-" + random.nextInt(1_000_000) + "\",\"symbol\":\"" + listing.symbol()
                + "\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":1,\"limitPrice\":" + limit.toPlainString() + "}";
        String credential = Base64.getEncoder().encodeToString(("load-" + customer + ":load-" + customer + "-pw").getBytes(StandardCharsets.UTF_8));
        http.sendAsync(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                        .header("Authorization", "Basic " + credential).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.discarding())
                .whenComplete((response, e) -> record(placement, intended, e != null ? e
                        : response.statusCode() / 100 != 2 ? new IllegalStateException("HTTP " + response.statusCode()) : null));
    }

    private void record(Recorder recorder, long intended, Throwable error) {
        if (error != null) {
            errors.incrementAndGet();
            Throwable cause = error.getCause() != null ? error.getCause() : error;
            String kind = cause instanceof IllegalStateException ? cause.getMessage() : cause.getClass().getSimpleName();
            errorKinds.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
            return;
        }
        recorder.recordValue(Math.max(1, (System.nanoTime() - intended) / 1000));
    }

    private void report(int seconds, String phase) {
        for (int elapsed = 5; elapsed <= seconds; elapsed += 5) {
            BrokerProcesses.sleep(5_000);
            progress.step(String.format("%s %d/%d s: errors %d %s", phase, elapsed, seconds, errors.get(), errorKinds));
        }
        BrokerProcesses.sleep((seconds % 5) * 1000L);
    }

    private PrometheusHistogram scrape(String name) throws IOException, InterruptedException {
        String body = http.send(HttpRequest.newBuilder(URI.create(brokers.url(REGION) + "/actuator/prometheus")).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return PrometheusHistogram.parse(body, name, REGION);
    }

    private void summarize(double seconds, double ordersPerSecond, PrometheusHistogram tickToFill, PrometheusHistogram receiptToFill,
                           Histogram placed, Histogram floor, long generatorLagMillis) {
        double floorP50 = floor.getValueAtPercentile(50) / 1000.0;
        double floorP99 = floor.getValueAtPercentile(99) / 1000.0;
        System.out.printf("%nPrototype load, %.0f s measured: %.0f orders/s sent, %.0f fills/s, %d errors %s, generator lag max %d ms%n",
                seconds, ordersPerSecond, tickToFill.count() / seconds, errors.get(), errorKinds, generatorLagMillis);
        System.out.println("| measure | count | p50 ms | p99 ms | max ms | p99 / bare write p99 |");
        System.out.println("|---|---|---|---|---|---|");
        System.out.printf("| bare LOCAL_QUORUM write (floor) | %d | %.1f | %.1f | %.1f | 1.00 |%n", floor.getTotalCount(), floorP50, floorP99, floor.getMaxValue() / 1000.0);
        System.out.printf("| ticker-to-fill (tick event -> fill durable) | %d | <= %.1f | <= %.1f | - | %.2f |%n", tickToFill.count(),
                tickToFill.percentileMillis(0.5), tickToFill.percentileMillis(0.99), tickToFill.percentileMillis(0.99) / floorP99);
        System.out.printf("| broker receipt -> fill durable | %d | <= %.1f | <= %.1f | - | %.2f |%n", receiptToFill.count(),
                receiptToFill.percentileMillis(0.5), receiptToFill.percentileMillis(0.99), receiptToFill.percentileMillis(0.99) / floorP99);
        System.out.printf("| order placement (REST, from intended start) | %d | %.1f | %.1f | %.1f | %.2f |%n", placed.getTotalCount(),
                placed.getValueAtPercentile(50) / 1000.0, placed.getValueAtPercentile(99) / 1000.0, placed.getMaxValue() / 1000.0,
                placed.getValueAtPercentile(99) / 1000.0 / floorP99);
    }

    /** Every region's brokers need their ticks topic to hold symbols (and be ready), not only the loaded region's. */
    private static void createTicksTopics(LocalStack stack) throws Exception {
        for (String region : stack.regions().names()) {
            createTicksTopic(stack.kafkaBootstrapServers(region));
        }
    }

    private static void createTicksTopic(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(Topics.TICKS, 12, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                throw e;
            }
        }
    }

    /** {@code --name value} pairs. */
    static final class Options {
        static Map<String, String> parse(String[] args) {
            Map<String, String> options = new java.util.HashMap<>();
            for (int i = 0; i < args.length; i++) {
                if (!args[i].startsWith("--") || i + 1 >= args.length) {
                    throw new IllegalArgumentException("expected --name value, got '" + args[i] + "'");
                }
                options.put(args[i].substring(2), args[++i]);
            }
            return options;
        }
    }
}
