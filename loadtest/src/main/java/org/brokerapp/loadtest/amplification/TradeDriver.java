package org.brokerapp.loadtest.amplification;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.brokerapp.client.BrokerClient;
import org.brokerapp.loadtest.measure.ErrorKinds;
import org.brokerapp.regions.Listing;
import org.brokerapp.ticker.Tick;
import org.brokerapp.ticker.TickProducer;

/**
 * Real trades through a real broker: a marketable BUY LIMIT order (1 share, 1 % above the price)
 * over REST, and once it is accepted a tick of its symbol at the price, which fills it. So every
 * write is one the application itself makes for a trade.
 */
final class TradeDriver implements AutoCloseable {

    /** The one region's broker, under a name of the driver's own. */
    private static final String BROKER = "trading";

    private final BrokerClient client;
    private final List<Listing> symbols;
    private final int customers;
    private final int regionIndex;
    private final int regionCount;
    private final TickProducer producer;
    private final Map<String, AtomicLong> sequences = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();

    /**
     * Trades for the load customers homed in the trading region ({@code load-n} is homed in region
     * {@code (n - 1) mod regionCount}), so every placement is decided where it is sent.
     */
    TradeDriver(String brokerUrl, Map<String, Object> tickKafka, List<Listing> symbols, int customers, int regionIndex, int regionCount) {
        this.client = new BrokerClient(Map.of(BROKER, brokerUrl));
        this.symbols = List.copyOf(symbols);
        this.customers = Math.max(1, customers / regionCount);
        this.regionIndex = regionIndex;
        this.regionCount = regionCount;
        this.producer = TickProducer.sendingEachAtOnce(tickKafka, "write-amplification-ticks");
    }

    /** Places {@code count} orders at {@code perSecond}, each followed by its tick; returns how many were accepted. */
    int trade(String batch, int count, double perSecond) throws InterruptedException {
        AtomicInteger accepted = new AtomicInteger();
        CountDownLatch answered = new CountDownLatch(count);
        AtomicInteger next = new AtomicInteger();
        ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "trade-pacer");
            t.setDaemon(true);
            return t;
        });
        try {
            pacer.scheduleAtFixedRate(() -> {
                int i = next.getAndIncrement();
                if (i < count) {
                    place(batch, i, accepted, answered);
                }
            }, 0, Math.max(1, Math.round(1_000_000 / perSecond)), TimeUnit.MICROSECONDS);
            if (!answered.await((long) (count / perSecond) + 60, TimeUnit.SECONDS)) {
                throw new IllegalStateException(answered.getCount() + " of " + count + " orders unanswered");
            }
        } finally {
            pacer.shutdownNow();
        }
        producer.flush();
        return accepted.get();
    }

    Map<String, AtomicLong> errors() {
        return errors;
    }

    private void place(String batch, int i, AtomicInteger accepted, CountDownLatch answered) {
        Listing listing = symbols.get(i % symbols.size());
        int customer = 1 + regionIndex + (i % customers) * regionCount;
        BigDecimal limit = listing.price().multiply(new BigDecimal("1.01")).setScale(2, RoundingMode.DOWN);
        String body = "{\"clientOrderId\":\"" + batch + "-" + i + "\",\"symbol\":\"" + listing.symbol()
                + "\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":1,\"limitPrice\":" + limit.toPlainString() + "}";
        client.placeOrder(BROKER, "load-" + customer, "load-" + customer + "-pw", body, System.nanoTime())
                .whenComplete((answer, e) -> {
                    if (e == null && answer.status() == 201) {
                        accepted.incrementAndGet();
                        tick(listing);
                    } else {
                        String kind = e != null ? ErrorKinds.ofThrowable(e) : "HTTP " + answer.status();
                        errors.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
                    }
                    answered.countDown();
                });
    }

    private void tick(Listing listing) {
        long sequence = sequences.computeIfAbsent(listing.symbol(), s -> new AtomicLong()).incrementAndGet();
        producer.send(new Tick(listing.symbol(), listing.exchange(), listing.price(), 100, sequence, Instant.now()));
    }

    @Override
    public void close() {
        producer.close();
        client.close();
    }
}
