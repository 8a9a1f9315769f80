package org.brokerapp.ticker;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * One trade on an exchange: what the ticker feed publishes to its region's {@value Topics#TICKS}
 * topic and every broker consumes. {@link TickCodec} writes and reads it (tick format v1, see
 * {@code ticker-feed/README.md}).
 *
 * <p>Invalid values are refused with an {@link IllegalArgumentException} whose message is one line.
 *
 * @param symbol    ticker, 1-12 characters of {@code A-Z 0-9 . -} starting with a letter or digit, e.g. {@code BRK.B}
 * @param exchange  exchange code, 1-16 characters of {@code A-Z 0-9 _ -}, e.g. {@code NASDAQ}
 * @param price     trade price in the exchange's currency, exact, &gt; 0, at most {@value #MAX_PRICE_SCALE}
 *                  fractional digits and {@value #MAX_PRICE_INTEGER_DIGITS} before the point; its scale is kept
 *                  ({@code 187.40} stays {@code 187.40}). The decimals are the price unit of the whole
 *                  system: the broker's matcher counts prices in units of 1/10^{@value #MAX_PRICE_SCALE}
 *                  ({@code PriceUnits}), so a tick the format accepts is always one the matcher can hold
 * @param size      shares traded, &gt; 0
 * @param sequence  per-symbol sequence number of this feed run, from 1 without gaps
 * @param eventTime when the trade happened; microsecond precision (finer digits are dropped)
 */
public record Tick(String symbol, String exchange, BigDecimal price, long size, long sequence, Instant eventTime) {

    public static final int MAX_SYMBOL_LENGTH = 12;
    public static final int MAX_EXCHANGE_LENGTH = 16;
    /**
     * The price unit rule, shared by the tick format and the broker's matcher: 4 decimals hold every
     * price of the listed exchanges (cents in the US, tenths of a cent on the ASX, sub-penny quotes).
     */
    public static final int MAX_PRICE_SCALE = 4;
    /** Digits before the point: with {@link #MAX_PRICE_SCALE} decimals, a price in 1/10^4 units fits a {@code long}. */
    public static final int MAX_PRICE_INTEGER_DIGITS = 14;
    public static final int MAX_PRICE_DIGITS = MAX_PRICE_INTEGER_DIGITS + MAX_PRICE_SCALE;
    /** Event times are epoch microseconds in a {@code long} on the wire; later ones cannot be written. */
    static final long MAX_EPOCH_SECOND = Long.MAX_VALUE / 1_000_000 - 1;

    public Tick {
        requireCode(symbol, "symbol", MAX_SYMBOL_LENGTH, ".-");
        requireCode(exchange, "exchange", MAX_EXCHANGE_LENGTH, "_-");
        if (price == null || price.signum() <= 0) {
            throw new IllegalArgumentException("tick price must be > 0, was " + (price == null ? null : price.toPlainString()));
        }
        if (price.scale() < 0) {
            // 1E+2 and 100 are the same price; the wire has no exponent, so keep the one that reads back equal
            price = price.setScale(0);
        }
        if (price.scale() > MAX_PRICE_SCALE || price.precision() - price.scale() > MAX_PRICE_INTEGER_DIGITS) {
            throw new IllegalArgumentException("tick price must have at most " + MAX_PRICE_SCALE + " decimals and "
                    + MAX_PRICE_INTEGER_DIGITS + " digits before the point, was " + price.toPlainString());
        }
        if (size <= 0) {
            throw new IllegalArgumentException("tick size must be > 0, was " + size);
        }
        if (sequence < 1) {
            throw new IllegalArgumentException("tick sequence must be >= 1, was " + sequence);
        }
        if (eventTime == null || eventTime.getEpochSecond() < 0 || eventTime.getEpochSecond() > MAX_EPOCH_SECOND) {
            throw new IllegalArgumentException("tick event time must be between 1970 and year 294246, was " + eventTime);
        }
        eventTime = eventTime.truncatedTo(ChronoUnit.MICROS);
    }

    /** Event time as microseconds since the Unix epoch, as the wire carries it. */
    public long eventTimeMicros() {
        return eventTime.getEpochSecond() * 1_000_000 + eventTime.getNano() / 1_000;
    }

    // a loop, not a regex: decoding runs this for every tick a broker consumes
    private static void requireCode(String value, String what, int maxLength, String punctuation) {
        if (value == null || value.isEmpty() || value.length() > maxLength) {
            throw new IllegalArgumentException("tick " + what + " must be 1 to " + maxLength + " characters, was "
                    + (value == null ? null : "'" + value + "'"));
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean alphanumeric = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alphanumeric && (i == 0 || punctuation.indexOf(c) < 0)) {
                throw new IllegalArgumentException("tick " + what + " must be A-Z, 0-9 or one of '" + punctuation
                        + "' (not first), was '" + value + "'");
            }
        }
    }
}
