package org.brokerapp.ticker.model;

/**
 * One symbol's price as geometric Brownian motion without drift:
 * {@code S(t+dt) = S(t) * exp(-sigma^2/2 * dt + sigma * sqrt(dt) * Z)}, Z standard normal, so the
 * expected price stays the start price and the price is never &lt;= 0.
 *
 * <p>Time is trading time: a year is 252 sessions of 6.5 hours, so the listing's annualised
 * volatility plays out over the hours an exchange is open, not over the calendar. The state is a
 * {@code double} (a random walk has no exact value to keep); {@link TickSizes} turns it into an exact
 * price. {@link StrictMath} keeps the walk identical on every JVM for the same random numbers.
 */
final class PricePath {

    static final double NANOS_PER_TRADING_YEAR = 252 * 6.5 * 3600 * 1e9;

    private final double volatility;
    private double price;
    private long lastNanos;

    PricePath(double startPrice, double volatility) {
        this.price = startPrice;
        this.volatility = volatility;
    }

    /** Moves the price to {@code nanos} after the start (never backwards) and returns it. */
    double advanceTo(long nanos, double standardNormal) {
        double dt = Math.max(0, nanos - lastNanos) / NANOS_PER_TRADING_YEAR;
        lastNanos = Math.max(lastNanos, nanos);
        price *= StrictMath.exp(-0.5 * volatility * volatility * dt + volatility * StrictMath.sqrt(dt) * standardNormal);
        return price;
    }
}
