package org.brokerapp.loadtest.check;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.brokerapp.api.OrderType;
import org.brokerapp.loadtest.workload.AcceptedOrder;

/**
 * The correctness rules for one customer, checked against what the API shows after the run:
 * <ul>
 *   <li>nothing lost: every order a broker accepted is listed, under its client order id;</li>
 *   <li>every listed order is OPEN, FILLED, CANCELLED or EXPIRED, and only a DAY or GTD order expires, never before its time; a MARKET order answered FILLED stays FILLED at that price;</li>
 *   <li>nothing filled twice: no order listed twice, every FILLED order exactly once among the transactions, nothing else there;</li>
 *   <li>fills honour the order: a BUY LIMIT at or below its limit, a SELL LIMIT at or above, a BUY STOP at or above its stop,
 *       a SELL STOP at or below;</li>
 *   <li>balances add up: cash = opening cash - filled buys + filled sells, positions = bought - sold, nothing negative.</li>
 * </ul>
 * Pure: given the API's answers it returns the findings, one line each.
 */
public final class LedgerAudit {

    /** What one customer's audit found. */
    public record Findings(List<String> problems, int accepted, int filled, int open, int cancelled, int expired, int marketableStillOpen) {
    }

    private LedgerAudit() {
    }

    public static Findings audit(String customerId, List<AcceptedOrder> accepted, List<ApiOrder> orders, List<ApiOrder> transactions,
                                 ApiHoldings holdings, BigDecimal openingCash) {
        List<String> problems = new ArrayList<>();
        Map<String, ApiOrder> byId = new HashMap<>();
        Map<String, ApiOrder> byClientId = new HashMap<>();
        int filled = 0;
        int open = 0;
        int cancelled = 0;
        int expired = 0;
        BigDecimal cash = openingCash;
        Map<String, Long> positions = new TreeMap<>();
        for (ApiOrder o : orders) {
            if (byId.put(o.orderId(), o) != null) {
                problems.add(customerId + ": order " + o.orderId() + " listed twice");
            }
            if (o.clientOrderId() != null && byClientId.put(o.clientOrderId(), o) != null) {
                problems.add(customerId + ": client order id " + o.clientOrderId() + " belongs to two orders");
            }
            switch (o.status() == null ? "" : o.status()) {
                case "OPEN" -> open++;
                case "CANCELLED" -> cancelled++;
                case "EXPIRED" -> {
                    expired++;
                    String early = expiredAsItMay(o);
                    if (early != null) {
                        problems.add(customerId + ": order " + o.orderId() + " " + early);
                    }
                }
                case "FILLED" -> {
                    filled++;
                    if (o.fillPrice() == null || o.fillPrice().signum() <= 0) {
                        problems.add(customerId + ": order " + o.orderId() + " FILLED without a fill price");
                        continue;
                    }
                    BigDecimal value = o.fillPrice().multiply(BigDecimal.valueOf(o.quantity()));
                    boolean buy = "BUY".equals(o.side());
                    cash = buy ? cash.subtract(value) : cash.add(value);
                    positions.merge(o.symbol(), buy ? o.quantity() : -o.quantity(), Long::sum);
                    String honoured = honours(o);
                    if (honoured != null) {
                        problems.add(customerId + ": order " + o.orderId() + " " + honoured);
                    }
                }
                default -> problems.add(customerId + ": order " + o.orderId() + " has status " + o.status());
            }
        }
        int marketableStillOpen = 0;
        for (AcceptedOrder a : accepted) {
            ApiOrder found = a.orderId() != null ? byId.get(a.orderId()) : byClientId.get(a.planned().clientOrderId());
            if (found == null) {
                problems.add(customerId + ": accepted order " + a.planned().clientOrderId() + " (" + a.orderId() + ") is lost");
                continue;
            }
            if (!a.planned().clientOrderId().equals(found.clientOrderId())) {
                problems.add(customerId + ": order " + a.orderId() + " has client order id " + found.clientOrderId() + ", placed as "
                        + a.planned().clientOrderId());
            }
            if ("FILLED".equals(a.status()) && (!"FILLED".equals(found.status())
                    || a.fillPrice() != null && found.fillPrice() != null && a.fillPrice().compareTo(found.fillPrice()) != 0)) {
                problems.add(customerId + ": order " + a.orderId() + " was answered FILLED at " + a.fillPrice() + ", ledger says "
                        + found.status() + " at " + found.fillPrice());
            }
            if (a.planned().marketable() && a.planned().type() != OrderType.MARKET && "OPEN".equals(found.status())) {
                marketableStillOpen++;
            }
        }
        Set<String> transacted = new HashSet<>();
        for (ApiOrder t : transactions) {
            if (!transacted.add(t.orderId())) {
                problems.add(customerId + ": order " + t.orderId() + " appears twice among the transactions (filled twice)");
            }
            ApiOrder listed = byId.get(t.orderId());
            if (listed == null || !"FILLED".equals(listed.status())) {
                problems.add(customerId + ": transaction of order " + t.orderId() + " whose order is " + (listed == null ? "missing" : listed.status()));
            }
        }
        if (transacted.size() != filled) {
            problems.add(customerId + ": " + filled + " FILLED orders but " + transacted.size() + " transactions");
        }
        if (holdings.cash().compareTo(cash) != 0) {
            problems.add(customerId + ": cash is " + holdings.cash().toPlainString() + ", opening cash - buys + sells is " + cash.toPlainString());
        }
        positions.values().removeIf(q -> q == 0);
        if (!positions.equals(holdings.positions())) {
            problems.add(customerId + ": positions are " + holdings.positions() + ", fills add up to " + positions);
        }
        positions.forEach((symbol, q) -> {
            if (q < 0) {
                problems.add(customerId + ": sold " + (-q) + " more " + symbol + " than it owned");
            }
        });
        if (holdings.reservedCash().signum() < 0 || holdings.availableCash().signum() < 0) {
            problems.add(customerId + ": reserved cash " + holdings.reservedCash() + ", available cash " + holdings.availableCash());
        }
        return new Findings(problems, accepted.size(), filled, open, cancelled, expired, marketableStillOpen);
    }

    /** An order may expire only if it is DAY or GTD, and not before its time. */
    private static String expiredAsItMay(ApiOrder o) {
        if (!"DAY".equals(o.timeInForce()) && !"GTD".equals(o.timeInForce())) {
            return "is " + o.timeInForce() + " but EXPIRED";
        }
        if (o.expiresAt() == null || o.closedAt() == null || o.closedAt().isBefore(o.expiresAt())) {
            return "EXPIRED at " + o.closedAt() + ", its time was " + o.expiresAt();
        }
        return null;
    }

    private static String honours(ApiOrder o) {
        if (("LIMIT".equals(o.type()) || "STOP_LIMIT".equals(o.type())) && o.limitPrice() != null) {
            int c = o.fillPrice().compareTo(o.limitPrice());
            if ("BUY".equals(o.side()) ? c > 0 : c < 0) {
                return o.side() + " " + o.type() + " " + o.limitPrice() + " filled at " + o.fillPrice();
            }
        } else if ("STOP".equals(o.type()) && o.stopPrice() != null) {
            int c = o.fillPrice().compareTo(o.stopPrice());
            if ("BUY".equals(o.side()) ? c < 0 : c > 0) {
                return o.side() + " STOP " + o.stopPrice() + " filled at " + o.fillPrice();
            }
        }
        return null;
    }
}
