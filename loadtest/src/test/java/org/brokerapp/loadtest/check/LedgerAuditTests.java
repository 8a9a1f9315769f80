package org.brokerapp.loadtest.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.loadtest.workload.AcceptedOrder;
import org.brokerapp.loadtest.workload.PlannedOrder;
import org.brokerapp.loadtest.workload.TradedSymbol;
import org.junit.jupiter.api.Test;

class LedgerAuditTests {

    private static final BigDecimal OPENING = new BigDecimal("1000.00");
    private static final TradedSymbol IBM = new TradedSymbol("IBM", "NYSE", "us-east-1", new BigDecimal("100"));

    private static AcceptedOrder accepted(String id, Side side, OrderType type, String price, boolean marketable, String status, String fill) {
        PlannedOrder p = new PlannedOrder("c-" + id, 1, IBM, side, type, 1, price == null ? null : new BigDecimal(price), marketable, "us-east-1");
        return new AcceptedOrder(p, id, status, fill == null ? null : new BigDecimal(fill));
    }

    private static ApiOrder api(String id, String side, String type, String limit, String status, String fill) {
        return new ApiOrder(id, "c-" + id, "IBM", side, type, 1, "LIMIT".equals(type) && limit != null ? new BigDecimal(limit) : null,
                "STOP".equals(type) && limit != null ? new BigDecimal(limit) : null, status, fill == null ? null : new BigDecimal(fill), "us-east-1",
                "GTC", null, null);
    }

    private static ApiOrder expired(String id, String timeInForce, Instant expiresAt, Instant closedAt) {
        return new ApiOrder(id, "c-" + id, "IBM", "BUY", "LIMIT", 1, new BigDecimal("50"), null, "EXPIRED", null, null, timeInForce, expiresAt,
                closedAt);
    }

    @Test
    void aConsistentLedgerHasNoFindings() {
        List<AcceptedOrder> accepted = List.of(accepted("1", Side.BUY, OrderType.LIMIT, "101", true, "OPEN", null),
                accepted("2", Side.BUY, OrderType.MARKET, null, true, "FILLED", "100.50"),
                accepted("3", Side.SELL, OrderType.LIMIT, "200", false, "OPEN", null));
        List<ApiOrder> orders = List.of(api("1", "BUY", "LIMIT", "101", "FILLED", "100.10"), api("2", "BUY", "MARKET", null, "FILLED", "100.50"),
                api("3", "SELL", "LIMIT", "200", "OPEN", null));
        List<ApiOrder> transactions = List.of(orders.get(0), orders.get(1));
        ApiHoldings holdings = new ApiHoldings(new BigDecimal("799.40"), BigDecimal.ZERO, new BigDecimal("799.40"), Map.of("IBM", 2L));

        LedgerAudit.Findings f = LedgerAudit.audit("load-1", accepted, orders, transactions, holdings, OPENING);

        assertThat(f.problems()).isEmpty();
        assertThat(f.filled()).isEqualTo(2);
        assertThat(f.open()).isEqualTo(1);
        assertThat(f.marketableStillOpen()).isZero();
    }

    @Test
    void lostOrdersDoubleFillsBrokenLimitsAndWrongCashAreFound() {
        List<AcceptedOrder> accepted = List.of(accepted("1", Side.BUY, OrderType.LIMIT, "101", true, "OPEN", null),
                accepted("9", Side.BUY, OrderType.LIMIT, "101", true, "OPEN", null),
                accepted("2", Side.BUY, OrderType.MARKET, null, true, "FILLED", "100.50"));
        List<ApiOrder> orders = List.of(api("1", "BUY", "LIMIT", "101", "FILLED", "102.00"), api("2", "BUY", "MARKET", null, "OPEN", null));
        List<ApiOrder> transactions = List.of(orders.get(0), orders.get(0));
        ApiHoldings holdings = new ApiHoldings(new BigDecimal("900.00"), BigDecimal.ZERO, new BigDecimal("900.00"), Map.of("IBM", 1L));

        List<String> problems = LedgerAudit.audit("load-1", accepted, orders, transactions, holdings, OPENING).problems();

        assertThat(problems).anyMatch(p -> p.contains("c-9") && p.contains("is lost"));
        assertThat(problems).anyMatch(p -> p.contains("appears twice among the transactions"));
        assertThat(problems).anyMatch(p -> p.contains("BUY LIMIT 101 filled at 102.00"));
        assertThat(problems).anyMatch(p -> p.contains("was answered FILLED at 100.50, ledger says OPEN"));
        assertThat(problems).anyMatch(p -> p.contains("cash is 900.00, opening cash - buys + sells is 898.00"));
    }

    @Test
    void positionsMustMatchTheFillsAndAMarketableOrderStillOpenIsCountedNotBlamed() {
        List<AcceptedOrder> accepted = List.of(accepted("1", Side.SELL, OrderType.STOP, "99", true, "OPEN", null));
        List<ApiOrder> orders = List.of(api("1", "SELL", "STOP", "99", "OPEN", null));
        ApiHoldings holdings = new ApiHoldings(OPENING, BigDecimal.ZERO, OPENING, Map.of("IBM", 5L));

        LedgerAudit.Findings f = LedgerAudit.audit("load-1", accepted, orders, List.of(), holdings, OPENING);

        assertThat(f.marketableStillOpen()).isEqualTo(1);
        assertThat(f.problems()).singleElement().asString().contains("positions are {IBM=5}, fills add up to {}");
    }

    @Test
    void anUnknownStatusAndAStopFilledOnTheWrongSideAreFound() {
        List<ApiOrder> orders = List.of(api("1", "SELL", "STOP", "99", "FILLED", "99.50"), api("2", "BUY", "LIMIT", "1", "PENDING", null));
        ApiHoldings holdings = new ApiHoldings(new BigDecimal("1099.50"), BigDecimal.ZERO, new BigDecimal("1099.50"), Map.of("IBM", -1L));

        List<String> problems = LedgerAudit.audit("load-1", List.of(), orders, List.of(orders.get(0)), holdings, OPENING).problems();

        assertThat(problems).anyMatch(p -> p.contains("SELL STOP 99 filled at 99.50"));
        assertThat(problems).anyMatch(p -> p.contains("has status PENDING"));
        assertThat(problems).anyMatch(p -> p.contains("sold 1 more IBM than it owned"));
    }

    @Test
    void onlyADayOrGtdOrderExpiresAndNeverBeforeItsTime() {
        Instant at = Instant.parse("2026-12-07T21:00:00Z");
        List<ApiOrder> orders = List.of(expired("1", "GTD", at, at.plusMillis(150)), expired("2", "DAY", at, at.minusMillis(1)),
                expired("3", "GTC", null, at));

        LedgerAudit.Findings f = LedgerAudit.audit("load-1", List.of(), orders, List.of(), new ApiHoldings(OPENING, BigDecimal.ZERO, OPENING,
                Map.of()), OPENING);

        assertThat(f.expired()).isEqualTo(3);
        assertThat(f.problems()).hasSize(2);
        assertThat(f.problems()).anyMatch(p -> p.contains("order 2 EXPIRED at 2026-12-07T20:59:59.999Z, its time was 2026-12-07T21:00:00Z"));
        assertThat(f.problems()).anyMatch(p -> p.contains("order 3 is GTC but EXPIRED"));
    }
}
