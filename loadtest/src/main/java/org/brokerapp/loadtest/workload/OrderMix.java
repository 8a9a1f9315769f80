package org.brokerapp.loadtest.workload;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.random.RandomGenerator;

import org.brokerapp.api.OrderType;

/**
 * Shares of LIMIT, STOP, MARKET and STOP_LIMIT among the orders placed, from weights (normalised,
 * so {@code LIMIT=3,STOP=1} and {@code LIMIT=0.75,STOP=0.25} are the same mix).
 */
public record OrderMix(double limit, double stop, double market, double stopLimit) {

    public OrderMix {
        double sum = limit + stop + market + stopLimit;
        if (limit < 0 || stop < 0 || market < 0 || stopLimit < 0 || Double.isNaN(sum) || Double.isInfinite(sum)) {
            throw new IllegalArgumentException("order mix weights must be >= 0, were LIMIT=" + limit + ",STOP=" + stop + ",MARKET=" + market
                    + ",STOP_LIMIT=" + stopLimit);
        }
        if (sum <= 0) {
            throw new IllegalArgumentException("order mix must give some type a weight > 0");
        }
        limit /= sum;
        stop /= sum;
        market /= sum;
        stopLimit /= sum;
    }

    /** A mix without STOP_LIMIT orders. */
    public OrderMix(double limit, double stop, double market) {
        this(limit, stop, market, 0);
    }

    public static final OrderMix LIMIT_ONLY = new OrderMix(1, 0, 0);

    /** {@code LIMIT=70,STOP=20,MARKET=10}; a type left out has weight 0. */
    public static OrderMix parse(String text) {
        Map<OrderType, Double> weights = new EnumMap<>(OrderType.class);
        for (String part : text.split(",")) {
            String[] kv = part.split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("--mix wants TYPE=weight,... (e.g. LIMIT=70,STOP=20,MARKET=10), got '" + text + "'");
            }
            OrderType type;
            try {
                type = OrderType.valueOf(kv[0].trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--mix: unknown order type '" + kv[0].trim() + "' (LIMIT, STOP, STOP_LIMIT or MARKET)");
            }
            if (weights.put(type, parseWeight(kv[1].trim(), text)) != null) {
                throw new IllegalArgumentException("--mix names " + type + " twice");
            }
        }
        return new OrderMix(weights.getOrDefault(OrderType.LIMIT, 0.0), weights.getOrDefault(OrderType.STOP, 0.0),
                weights.getOrDefault(OrderType.MARKET, 0.0), weights.getOrDefault(OrderType.STOP_LIMIT, 0.0));
    }

    private static double parseWeight(String value, String text) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--mix: '" + value + "' is not a number in '" + text + "'");
        }
    }

    public OrderType pick(RandomGenerator random) {
        double r = random.nextDouble();
        if (r < limit) {
            return OrderType.LIMIT;
        }
        if (r < limit + stop) {
            return OrderType.STOP;
        }
        return r < limit + stop + stopLimit || market == 0 ? OrderType.STOP_LIMIT : OrderType.MARKET;
    }

    public OrderMix withMarket(double marketShare) {
        if (marketShare < 0 || marketShare > 1) {
            throw new IllegalArgumentException("market share must be between 0 and 1, was " + marketShare);
        }
        double rest = limit + stop + stopLimit;
        return rest == 0 ? new OrderMix(1 - marketShare, 0, marketShare)
                : new OrderMix(limit / rest * (1 - marketShare), stop / rest * (1 - marketShare), marketShare, stopLimit / rest * (1 - marketShare));
    }

    @Override
    public String toString() {
        String mix = String.format(Locale.ROOT, "LIMIT=%.0f%%,STOP=%.0f%%,MARKET=%.0f%%", limit * 100, stop * 100, market * 100);
        return stopLimit == 0 ? mix : mix + String.format(Locale.ROOT, ",STOP_LIMIT=%.0f%%", stopLimit * 100);
    }
}
