package org.brokerapp.regions;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * One symbol of the {@link SymbolUniverse}: a ticker listed on an exchange, with the price and
 * volatility the ticker feed starts its simulation from.
 *
 * @param symbol     ticker, e.g. {@code AAPL}, {@code BRK.B}, {@code 29M}
 * @param exchange   exchange it is listed on, e.g. {@code NASDAQ}; the exchange's home region matches it
 * @param name       company name, for people
 * @param price      starting price in the exchange's currency, exact (never a binary fraction)
 * @param volatility annualised volatility as a fraction, e.g. {@code 0.28}
 */
public record Listing(String symbol, String exchange, String name, BigDecimal price, double volatility) {

    /** Upper-case letters, digits, '.' and '-', at most 12 characters. */
    public static final Pattern SYMBOL = Pattern.compile("[A-Z0-9][A-Z0-9.-]{0,11}");
    public static final double MAX_VOLATILITY = 5;

    public Listing {
        if (symbol == null || !SYMBOL.matcher(symbol).matches()) {
            throw new InvalidRegionsException("symbol must be upper-case letters, digits, '.' or '-', was '" + symbol + "'");
        }
        Region.requireText(exchange, "exchange");
        Region.requireText(name, "name");
        if (price == null || price.signum() <= 0) {
            throw new InvalidRegionsException("price must be > 0, was " + (price == null ? null : price.toPlainString()));
        }
        // written so that NaN fails too
        if (!(volatility > 0 && volatility < MAX_VOLATILITY)) {
            throw new InvalidRegionsException("volatility must be > 0 and < " + (int) MAX_VOLATILITY + ", was " + volatility);
        }
    }
}
