package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import org.brokerapp.broker.support.BrokerProcess;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.broker.support.TickPublisher;
import org.brokerapp.client.BrokerSession.Reply;
import org.brokerapp.infra.host.Await;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Nothing accepted is lost and nothing is filled twice, and the customer's cash adds up, while a
 * second us-east-1 broker joins the consumer groups (a rebalance of symbols and of accounts), is killed with SIGKILL under a steady tick stream, and restarts
 * (two more rebalances), with orders and cancels arriving from both regions throughout.
 */
@BrokersTest
class CrashAndRebalanceIT {

    private static final String CUSTOMERS_TAKEN = "newly assigned customer partitions";
    private static final Pattern SYMBOLS_TAKEN = Pattern.compile("matching [1-9][0-9]* symbols of .*: [1-9][0-9]* taken on");
    private static final List<String> SYMBOLS = List.of("HD", "MRK", "ABBV", "BAC", "WFC", "CRM", "ORCL", "MCD", "CAT", "GS",
            "AXP", "MS", "UNP", "LMT", "DE", "HON", "UPS", "COST", "PEP", "AMGN");

    private final Brokers brokers;
    private final SymbolUniverse universe = SymbolUniverse.loadDefault();
    private final Map<String, Set<BigDecimal>> ticked = new ConcurrentHashMap<>();
    private final Map<String, String> accepted = new ConcurrentHashMap<>();
    private final Map<String, Integer> cancelAnswers = new ConcurrentHashMap<>();
    private final Random random = new Random(42);

    CrashAndRebalanceIT(Brokers brokers) {
        this.brokers = brokers;
    }

    @Test
    void everyAcceptedOrderEndsFilledOnceOrCancelledThroughAKillAndTwoRebalances() throws Exception {
        Path logs = Path.of("target", "crash-test");
        // load-1 is homed in us-east-1: its account, too, moves between the two instances there
        TestSession home = brokers.client("us-east-1", "load-1", "load-1-pw");
        TestSession away = brokers.client("ap-southeast-2", "load-1", "load-1-pw");
        BigDecimal cashBefore = new BigDecimal(home.get("/api/holdings").text("cash"));
        AtomicBoolean ticking = new AtomicBoolean(true);
        Thread ticker = new Thread(() -> steadyTicks(ticking), "steady-ticks");
        ticker.start();
        try {
            BrokerProcess second = BrokerProcess.start(brokers.stack(), "us-east-1", logs.resolve("second-1.log"));
            try {
                place(home, away, 40);
            } finally {
                second.kill();
            }
            place(home, away, 40);
            BrokerProcess restarted = BrokerProcess.start(brokers.stack(), "us-east-1", logs.resolve("second-2.log"));
            try {
                assertTookCustomersOnlyOnceServing(logs.resolve("second-2.log"));
                place(home, away, 40);
                sweepUntilAllClosed(home, Duration.ofSeconds(60));
            } finally {
                printCounters("in-process us-east-1", brokers.operator("us-east-1"));
                printCounters("restarted us-east-1", restarted.client("operator", "operator-pw"));
                restarted.threadDump();
                restarted.close();
            }
        } finally {
            ticking.set(false);
            ticker.join();
        }

        Map<String, Reply> end = new HashMap<>();
        accepted.forEach((orderId, symbol) -> end.put(orderId, home.get("/api/orders/" + orderId)));
        int filled = 0;
        int cancelled = 0;
        BigDecimal spent = BigDecimal.ZERO;
        for (Map.Entry<String, Reply> e : end.entrySet()) {
            Reply order = e.getValue();
            assertThat(order.status()).as("accepted order %s exists", e.getKey()).isEqualTo(200);
            String status = order.text("status");
            assertThat(status).as("order %s", order.raw()).isIn("FILLED", "CANCELLED");
            if (cancelAnswers.getOrDefault(e.getKey(), 0) == 200) {
                assertThat(status).isEqualTo("CANCELLED");
            }
            if (status.equals("FILLED")) {
                BigDecimal price = new BigDecimal(order.text("fillPrice"));
                assertThat(ticked.get(order.text("symbol"))).as("filled at a price that was ticked").contains(price.setScale(2, RoundingMode.UNNECESSARY));
                spent = spent.add(price.multiply(BigDecimal.valueOf(order.body().path("quantity").asLong())));
                filled++;
            } else {
                cancelled++;
            }
        }
        Reply holdings = home.get("/api/holdings");
        System.out.printf("crash test: %d accepted, %d filled, %d cancelled; cash %s -> %s%n", accepted.size(), filled, cancelled,
                cashBefore, holdings.text("cash"));
        assertThat(accepted).hasSizeGreaterThan(100);
        assertThat(filled).isPositive();
        assertThat(new BigDecimal(holdings.text("cash"))).isEqualByComparingTo(cashBefore.subtract(spent));
        assertThat(new BigDecimal(holdings.text("reservedCash"))).isEqualByComparingTo("0");
        int transactions = 0;
        for (var t : home.getAll("/api/transactions")) {
            transactions += accepted.containsKey(t.path("orderId").asString()) ? 1 : 0;
        }
        assertThat(transactions).as("one transaction per filled order").isEqualTo(filled);

        // search saw the same: every accepted order indexed once, in its final state, though its deciders were killed and rebalanced
        Map<String, String> finalStates = new HashMap<>();
        end.forEach((orderId, order) -> finalStates.put(orderId, order.text("status")));
        Await.until("every accepted order searchable once, in its final state", Duration.ofSeconds(90),
                () -> searchedStates(home), searched -> searched.keySet().containsAll(finalStates.keySet())
                        && finalStates.entrySet().stream().allMatch(e -> e.getValue().equals(searched.get(e.getKey()).get(0)))
                        && searched.values().stream().allMatch(states -> states.size() == 1));
    }

    /** The customer's orders as search shows them, page by page: order id to every status shown for it (one, unless duplicated). */
    private static Map<String, List<String>> searchedStates(TestSession client) {
        Map<String, List<String>> states = new HashMap<>();
        for (int page = 1; page <= 20; page++) {
            JsonNode items = client.get("/api/orders/search?size=100&page=" + page).body().path("items");
            items.forEach(item -> states.computeIfAbsent(item.path("orderId").asString(), id -> new ArrayList<>()).add(item.path("status").asString()));
            if (items.size() < 100) {
                break;
            }
        }
        return states;
    }

    /** The returning instance took customer partitions from the survivor only after it had started and held symbols to match. */
    private static void assertTookCustomersOnlyOnceServing(Path log) throws IOException {
        List<String> lines = Await.value("the returning instance's customer partitions in its log", Duration.ofSeconds(60), () -> {
            List<String> read = Files.readAllLines(log);
            return read.stream().anyMatch(l -> l.contains(CUSTOMERS_TAKEN)) ? read : null;
        });
        int started = firstLine(lines, l -> l.contains("Started BrokerApplication"));
        int symbols = firstLine(lines, l -> SYMBOLS_TAKEN.matcher(l).find());
        int customers = firstLine(lines, l -> l.contains(CUSTOMERS_TAKEN));
        assertThat(started).as("started").isNotNegative();
        assertThat(symbols).as("symbols taken").isNotNegative();
        assertThat(customers).as("customers taken after the start and the symbols").isGreaterThan(started).isGreaterThan(symbols);
    }

    private static int firstLine(List<String> lines, java.util.function.Predicate<String> matches) {
        for (int i = 0; i < lines.size(); i++) {
            if (matches.test(lines.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static void printCounters(String who, TestSession broker) {
        String metrics = broker.get("/actuator/prometheus").body().path("unparsed").asString();
        metrics.lines().filter(l -> l.startsWith("broker_ticks_total") || l.startsWith("broker_fills_total"))
                .forEach(l -> System.out.println(who + ": " + l));
        System.out.println(who + ": " + broker.get("/actuator/health").raw());
    }

    /** Buys at thresholds around each symbol's price: some fill on the steady stream, the rest on the final sweep. */
    private void place(TestSession home, TestSession away, int count) {
        for (int i = 0; i < count; i++) {
            String symbol = SYMBOLS.get(random.nextInt(SYMBOLS.size()));
            BigDecimal base = universe.get(symbol).price();
            boolean limit = random.nextBoolean();
            BigDecimal offset = base.multiply(BigDecimal.valueOf(random.nextInt(30) / 1000.0)).setScale(2, RoundingMode.DOWN);
            BigDecimal price = limit ? base.subtract(offset) : base.add(offset);
            TestSession client = random.nextInt(3) == 0 ? away : home;
            Map<String, Object> order = OrderMatchingIT.order(limit ? "LIMIT" : "STOP", "BUY", symbol, 1, price.toPlainString());
            Reply reply = client.place(order);
            // 503: the account is between owners (a killed owner's lease lapses within 15 s of its last renewal)
            for (int retry = 0; retry < 60 && reply.status() == 503; retry++) {
                OrderMatchingIT.sleep(500);
                reply = client.place(order);
            }
            assertThat(reply.status()).as(reply.raw()).isIn(200, 201);
            accepted.put(reply.text("orderId"), symbol);
            if (random.nextInt(8) == 0) {
                Reply cancel = home.delete("/api/orders/" + reply.text("orderId"));
                // 404: placed away and not yet replicated here; 409: already filled or contended (retry is the client's)
                assertThat(cancel.status()).as(cancel.raw()).isIn(200, 202, 404, 409);
                cancelAnswers.put(reply.text("orderId"), cancel.status());
            }
            OrderMatchingIT.sleep(100);
        }
    }

    private void steadyTicks(AtomicBoolean ticking) {
        Random walk = new Random(7);
        try (TickPublisher ticks = brokers.ticks("us-east-1")) {
            while (ticking.get()) {
                for (String symbol : SYMBOLS) {
                    Listing listing = universe.get(symbol);
                    BigDecimal price = listing.price().multiply(BigDecimal.valueOf(1 + (walk.nextGaussian() * 0.01))).setScale(2, RoundingMode.HALF_EVEN);
                    tick(ticks, symbol, listing.exchange(), price);
                }
                OrderMatchingIT.sleep(50);
            }
        }
    }

    /** Ticks far below and far above every price until every order is closed: a lost order would stay OPEN. */
    private void sweepUntilAllClosed(TestSession home, Duration timeout) {
        try (TickPublisher ticks = brokers.ticks("us-east-1")) {
            Await.await("every accepted order closed", timeout).pollInterval(Duration.ofMillis(300)).until(() -> {
                // every page (getAll follows them): a page reads a slice of the ledger and keeps its open orders,
                // so the first page alone can miss an open order
                List<String> open = new ArrayList<>();
                for (var o : home.getAll("/api/orders?status=OPEN")) {
                    if (accepted.containsKey(o.path("orderId").asString())) {
                        open.add(o.path("symbol").asString());
                    }
                }
                for (String symbol : Set.copyOf(open)) {
                    Listing listing = universe.get(symbol);
                    tick(ticks, symbol, listing.exchange(), listing.price().multiply(new BigDecimal("1.05")).setScale(2, RoundingMode.HALF_EVEN));
                    tick(ticks, symbol, listing.exchange(), listing.price().multiply(new BigDecimal("0.95")).setScale(2, RoundingMode.HALF_EVEN));
                }
                return open.isEmpty();
            });
        }
    }

    private void tick(TickPublisher ticks, String symbol, String exchange, BigDecimal price) {
        ticked.computeIfAbsent(symbol, s -> ConcurrentHashMap.newKeySet()).add(price);
        ticks.tick(symbol, exchange, price.toPlainString());
    }
}
