package org.brokerapp.loadtest.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.api.TimeInForce;
import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.Tick;
import org.junit.jupiter.api.Test;

class OrderPlannerTests {

    private static final RegionsModel REGIONS = RegionsFile.loadDefault();
    private static final int N = 20_000;

    private static WorkloadSpec spec(OrderMix mix, double buy, double marketable, double cross) {
        Map<String, Integer> symbols = new LinkedHashMap<>();
        symbols.put("us-east-1", 10);
        symbols.put("ap-southeast-2", 6);
        return new WorkloadSpec(100, 200, mix, buy, marketable, cross, symbols, 8, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(10),
                Duration.ZERO, 10, 1000, 7);
    }

    private static List<PlannedOrder> plan(WorkloadSpec spec) {
        SymbolSet symbols = SymbolSet.choose(SymbolUniverse.loadDefault(), REGIONS, spec.symbolsPerRegion());
        OrderPlanner planner = new OrderPlanner(spec, symbols, REGIONS.names(), "t");
        List<PlannedOrder> orders = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            orders.add(planner.next());
        }
        return orders;
    }

    @Test
    void theMixSidesMarketabilityAndCrossRegionShareComeOutAsAskedFor() {
        List<PlannedOrder> orders = plan(spec(new OrderMix(60, 25, 15), 0.7, 0.4, 0.3));

        assertThat(share(orders, o -> o.type() == OrderType.LIMIT)).isCloseTo(0.60, offset(0.02));
        assertThat(share(orders, o -> o.type() == OrderType.STOP)).isCloseTo(0.25, offset(0.02));
        assertThat(share(orders, o -> o.type() == OrderType.MARKET)).isCloseTo(0.15, offset(0.02));
        assertThat(share(orders, o -> o.side() == Side.BUY)).isCloseTo(0.7, offset(0.02));
        assertThat(share(orders.stream().filter(o -> o.type() != OrderType.MARKET).toList(), PlannedOrder::marketable)).isCloseTo(0.4, offset(0.02));
        assertThat(share(orders, PlannedOrder::crossRegion)).isCloseTo(0.3, offset(0.02));
        assertThat(orders).allSatisfy(o -> assertThat(o.placedIn()).isEqualTo(REGIONS.names().get((o.customer() - 1) % 2)));
        assertThat(orders).allSatisfy(o -> assertThat(o.marketable() || o.type() != OrderType.MARKET).isTrue());
        assertThat(new HashSet<>(orders.stream().map(PlannedOrder::clientOrderId).toList())).hasSize(N);
    }

    @Test
    void aSeedGivesTheSameOrdersAgain() {
        WorkloadSpec spec = spec(new OrderMix(1, 1, 1), 0.5, 0.5, 0.5);

        assertThat(plan(spec)).isEqualTo(plan(spec));
    }

    @Test
    void aMarketableOrderTriggersOnAnyTickAndARestingOneOnNone() {
        WorkloadSpec spec = spec(new OrderMix(1, 1, 0), 0.5, 0.5, 0);
        List<PlannedOrder> orders = plan(spec);
        SymbolSet symbols = SymbolSet.choose(SymbolUniverse.loadDefault(), REGIONS, spec.symbolsPerRegion());
        List<Tick> ticks = new ArrayList<>();
        for (String region : symbols.regions()) {
            TickPlanner planner = new TickPlanner(symbols.in(region), 3);
            for (int i = 0; i < 2000; i++) {
                ticks.add(planner.next(Instant.now()));
            }
        }
        for (PlannedOrder o : orders.subList(0, 2000)) {
            for (Tick t : ticks) {
                if (t.symbol().equals(o.symbol().symbol())) {
                    assertThat(triggers(o, t.price())).as("%s at tick %s", o, t.price()).isEqualTo(o.marketable());
                }
            }
        }
    }

    @Test
    void tickSequencesRunFromOneWithoutGapsPerSymbol() {
        SymbolSet symbols = SymbolSet.choose(SymbolUniverse.loadDefault(), REGIONS, Map.of("us-east-1", 3));
        TickPlanner planner = new TickPlanner(symbols.in("us-east-1"), 1);
        List<Tick> ticks = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            ticks.add(planner.next(Instant.EPOCH.plusSeconds(i)));
        }
        assertThat(ticks.stream().map(Tick::sequence)).containsExactly(1L, 1L, 1L, 2L, 2L, 2L, 3L, 3L, 3L);
        assertThat(ticks.get(4).eventTime()).isEqualTo(Instant.EPOCH.plusSeconds(4));
    }

    @Test
    void primingBuysEveryPortfolioSymbolOfEveryCustomerInTheCustomersHome() {
        WorkloadSpec spec = spec(OrderMix.LIMIT_ONLY, 0.5, 0.5, 0.5);
        SymbolSet symbols = SymbolSet.choose(SymbolUniverse.loadDefault(), REGIONS, spec.symbolsPerRegion());
        OrderPlanner planner = new OrderPlanner(spec, symbols, REGIONS.names(), "t");

        List<PlannedOrder> priming = planner.primingOrders();

        // 10 + 6 symbols over 8 customers: 2 of us-east-1's and 1 of ap-southeast-2's each, together every symbol
        assertThat(priming).hasSize(24);
        assertThat(priming).allSatisfy(o -> {
            assertThat(o.side()).isEqualTo(Side.BUY);
            assertThat(o.marketable()).isTrue();
            assertThat(o.placedIn()).isEqualTo(planner.homeOf(o.customer()));
            assertThat(o.quantity()).isBetween(1L, 1000L);
            assertThat(planner.portfolio(o.customer())).contains(o.symbol());
        });
        assertThat(new HashSet<>(priming.stream().map(o -> o.symbol().symbol()).toList())).hasSize(16);
        List<PlannedOrder> orders = plan(spec);
        assertThat(orders).allSatisfy(o -> assertThat(planner.portfolio(o.customer())).contains(o.symbol()));
    }

    @Test
    void theBodyCarriesThePriceFieldOfItsTypeOnly() {
        TradedSymbol ibm = new TradedSymbol("IBM", "NYSE", "us-east-1", new BigDecimal("200"));

        assertThat(new PlannedOrder("c-1", 1, ibm, Side.BUY, OrderType.MARKET, 1, null, true, "ap-southeast-2").json())
                .isEqualTo("{\"clientOrderId\":\"c-1\",\"symbol\":\"IBM\",\"side\":\"BUY\",\"type\":\"MARKET\",\"quantity\":1,\"timeInForce\":\"IOC\"}");
        assertThat(new PlannedOrder("c-2", 1, ibm, Side.SELL, OrderType.STOP, 3, new BigDecimal("198"), true, "us-east-1").json())
                .endsWith("\"type\":\"STOP\",\"quantity\":3,\"stopPrice\":198,\"timeInForce\":\"GTC\"}");
        assertThat(new PlannedOrder("c-3", 1, ibm, Side.BUY, OrderType.LIMIT, 1, new BigDecimal("202.5"), true, "us-east-1").json())
                .endsWith("\"limitPrice\":202.5,\"timeInForce\":\"GTC\"}");
    }

    @Test
    void aStopLimitCarriesItsStopAndALimitBeyondIt() {
        TradedSymbol ibm = new TradedSymbol("IBM", "NYSE", "us-east-1", new BigDecimal("200"));

        assertThat(new PlannedOrder("c-5", 1, ibm, Side.BUY, OrderType.STOP_LIMIT, 1, new BigDecimal("198"), true, "us-east-1").json())
                .endsWith("\"type\":\"STOP_LIMIT\",\"quantity\":1,\"stopPrice\":198,\"limitPrice\":201.96,\"timeInForce\":\"GTC\"}");
        assertThat(new PlannedOrder("c-6", 1, ibm, Side.SELL, OrderType.STOP_LIMIT, 1, new BigDecimal("202"), true, "us-east-1").json())
                .contains("\"stopPrice\":202,\"limitPrice\":197.96");
    }

    @Test
    void aGtdOrderExpiresItsLifeAfterItIsSent() {
        TradedSymbol ibm = new TradedSymbol("IBM", "NYSE", "us-east-1", new BigDecimal("200"));
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        String body = new PlannedOrder("c-4", 1, ibm, Side.BUY, OrderType.LIMIT, 1, new BigDecimal("100"), false, "us-east-1", TimeInForce.GTD,
                Duration.ofSeconds(10)).json();

        Instant expireAt = Instant.parse(body.replaceAll(".*\"expireAt\":\"([^\"]+)\".*", "$1"));
        assertThat(body).contains("\"timeInForce\":\"GTD\"");
        assertThat(expireAt).isBetween(before.plusSeconds(10), Instant.now().plusSeconds(10));
    }

    @Test
    void restingOrdersComeInEveryTimeInForceAndMarketOrdersAreImmediate() {
        WorkloadSpec spec = spec(OrderMix.parse("LIMIT=45,STOP=45,MARKET=10"), 0.5, 0.5, 0.2);
        OrderPlanner planner = new OrderPlanner(spec, SymbolSet.choose(SymbolUniverse.loadDefault(), REGIONS, spec.symbolsPerRegion()),
                REGIONS.names(), "tif");
        List<PlannedOrder> orders = IntStream.range(0, 2_000).mapToObj(i -> planner.next()).toList();

        assertThat(orders.stream().filter(o -> o.type() != OrderType.MARKET && !o.marketable()).map(PlannedOrder::timeInForce))
                .contains(TimeInForce.GTC, TimeInForce.DAY, TimeInForce.GTD).doesNotContain(TimeInForce.IOC, TimeInForce.FOK);
        assertThat(orders.stream().filter(o -> o.type() == OrderType.MARKET)).allSatisfy(o -> assertThat(o.timeInForce()).isEqualTo(TimeInForce.IOC));
        assertThat(orders.stream().filter(o -> o.timeInForce() == TimeInForce.GTD)).allSatisfy(o -> assertThat(o.goodFor())
                .isBetween(Duration.ofSeconds(2), Duration.ofSeconds(30)));
    }

    /** BUY LIMIT and SELL STOP trigger at or below their price, SELL LIMIT and BUY STOP at or above. */
    private static boolean triggers(PlannedOrder o, BigDecimal tick) {
        int c = tick.compareTo(o.price());
        boolean atOrBelow = (o.side() == Side.BUY) == (o.type() == OrderType.LIMIT);
        return atOrBelow ? c <= 0 : c >= 0;
    }

    private static double share(List<PlannedOrder> orders, java.util.function.Predicate<PlannedOrder> p) {
        return orders.stream().filter(p).count() / (double) orders.size();
    }
}
