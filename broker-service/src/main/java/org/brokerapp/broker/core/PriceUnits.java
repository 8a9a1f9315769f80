package org.brokerapp.broker.core;

import java.math.BigDecimal;
import java.util.Objects;

import org.brokerapp.ticker.Tick;

/**
 * Prices as whole units of 1/10,000 of the currency, so that the matcher compares {@code long}s
 * rather than {@link BigDecimal}s on every tick. Four decimals hold every price of the listed
 * exchanges (cents in the US, tenths of a cent on the ASX) with room for sub-penny quotes.
 *
 * <p>The number of decimals is not this class's to choose: it is the tick format's
 * ({@link Tick#MAX_PRICE_SCALE}), so that every price a tick can carry is a price the matcher can
 * hold, and an order price is refused by the same rule a tick price is.
 */
public final class PriceUnits {

    /** Units per currency unit: {@code 1.0000} is {@value} units. */
    public static final long SCALE = 10_000;

    /** Decimals of a price: the tick format's rule ({@link Tick#MAX_PRICE_SCALE}). */
    public static final int DECIMALS = Tick.MAX_PRICE_SCALE;

    static {
        if (BigDecimal.ONE.movePointRight(DECIMALS).longValueExact() != SCALE) {
            throw new ExceptionInInitializerError("SCALE must be 10^" + DECIMALS + " (the tick format's price decimals)");
        }
    }
    private static final int MIN_DISPLAY_DECIMALS = 2;
    /** {@code Long.MAX_VALUE} units is 922,337,203,685,477.5807: 15 digits before the point at most. */
    private static final int MAX_INTEGER_DIGITS = 15;

    private PriceUnits() {
    }

    /**
     * The exact number of units of a price.
     *
     * @throws IllegalArgumentException if the price is zero or negative
     * @throws ArithmeticException      if the price has a non-zero digit after the fourth decimal, or
     *                                  is too large for a {@code long} of units
     */
    public static long of(BigDecimal price) {
        Objects.requireNonNull(price, "price");
        if (price.signum() <= 0) {
            throw new IllegalArgumentException("a price must be > 0, was " + price.toPlainString());
        }
        // bounds first, from the scale and precision alone: 1e-50000000 must not cost a 50-million-digit division
        if (price.scale() > DECIMALS && price.stripTrailingZeros().scale() > DECIMALS) {
            throw new ArithmeticException("more than " + DECIMALS + " decimals");
        }
        if ((long) price.precision() - price.scale() > MAX_INTEGER_DIGITS) {
            throw new ArithmeticException("more than " + MAX_INTEGER_DIGITS + " digits before the point");
        }
        // longValueExact refuses a fractional rest instead of rounding it away: 100.00001 is not 100.0000
        return price.movePointRight(DECIMALS).longValueExact();
    }

    public static void requirePositive(long units) {
        if (units <= 0) {
            throw new IllegalArgumentException("a price must be > 0 units, was " + units);
        }
    }

    /** The price of {@code units} with at least two decimals and no trailing zeros beyond them: 187.44, 0.465, 100.00. */
    public static BigDecimal toDecimal(long units) {
        BigDecimal price = BigDecimal.valueOf(units, DECIMALS).stripTrailingZeros();
        return price.scale() < MIN_DISPLAY_DECIMALS ? price.setScale(MIN_DISPLAY_DECIMALS) : price;
    }
}
