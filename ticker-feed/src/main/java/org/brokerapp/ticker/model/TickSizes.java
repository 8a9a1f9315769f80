package org.brokerapp.ticker.model;

import java.math.BigDecimal;
import java.util.List;

/**
 * The price grid of an exchange: prices move in whole increments, finer below some prices.
 *
 * <ul>
 *   <li>NYSE, NASDAQ (SEC Rule 612): 0.0001 below 1.00, else 0.01;</li>
 *   <li>ASX (Operating Rules, Procedure 3120): 0.001 up to 0.10, 0.005 up to 2.00, else 0.01;</li>
 *   <li>any other exchange: 0.01.</li>
 * </ul>
 *
 * Rounding is to the nearest increment, and never below one increment of the finest band, so a
 * rounded price is always &gt; 0. The scale of a rounded price is the scale of its increment
 * ({@code 187.40}, {@code 1.995}).
 */
public final class TickSizes {

    private static final TickSizes US = new TickSizes(List.of(
            new Band(new BigDecimal("1.00"), new BigDecimal("0.0001")),
            new Band(null, new BigDecimal("0.01"))));
    private static final TickSizes ASX = new TickSizes(List.of(
            new Band(new BigDecimal("0.10"), new BigDecimal("0.001")),
            new Band(new BigDecimal("2.00"), new BigDecimal("0.005")),
            new Band(null, new BigDecimal("0.01"))));
    private static final TickSizes ONE_CENT = new TickSizes(List.of(new Band(null, new BigDecimal("0.01"))));

    private final Band[] bands;

    private TickSizes(List<Band> bands) {
        this.bands = bands.toArray(Band[]::new);
    }

    public static TickSizes of(String exchange) {
        return switch (exchange) {
            case "NYSE", "NASDAQ" -> US;
            case "ASX" -> ASX;
            default -> ONE_CENT;
        };
    }

    /** The nearest price on the grid; at least the smallest increment. */
    public BigDecimal round(double price) {
        int last = bands.length - 1;
        for (int i = 0; i <= last; i++) {
            Band band = bands[i];
            if (i < last && !(price < band.below)) {
                continue;
            }
            long steps = Math.max(1, Math.round(price / band.increment));
            long unscaled = steps * band.unscaledIncrement;
            // rounding up onto the band's upper bound: that price belongs to the next band's (coarser) grid
            if (i < last && unscaled >= band.unscaledBound) {
                continue;
            }
            return BigDecimal.valueOf(unscaled, band.scale);
        }
        throw new AssertionError("the last band takes every price");
    }

    /** The increment that applies at this (rounded) price. */
    public BigDecimal increment(BigDecimal price) {
        for (int i = 0; i < bands.length - 1; i++) {
            if (price.compareTo(bands[i].exactBound) < 0) {
                return bands[i].exactIncrement;
            }
        }
        return bands[bands.length - 1].exactIncrement;
    }

    /** Prices below {@code bound} (null: all prices) move in {@code increment}. */
    private static final class Band {
        final BigDecimal exactBound;
        final BigDecimal exactIncrement;
        final double below;
        final double increment;
        final long unscaledIncrement;
        final long unscaledBound;
        final int scale;

        Band(BigDecimal bound, BigDecimal increment) {
            this.exactBound = bound;
            this.exactIncrement = increment;
            this.below = bound == null ? Double.POSITIVE_INFINITY : bound.doubleValue();
            this.increment = increment.doubleValue();
            this.scale = increment.scale();
            this.unscaledIncrement = increment.unscaledValue().longValueExact();
            this.unscaledBound = bound == null ? Long.MAX_VALUE : bound.setScale(scale).unscaledValue().longValueExact();
        }
    }
}
