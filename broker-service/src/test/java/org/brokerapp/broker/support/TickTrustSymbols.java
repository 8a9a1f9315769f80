package org.brokerapp.broker.support;

/** Symbols only {@code ticker.TickTrustIT} ticks, so that its band and sequence checks see no other test's ticks. */
public final class TickTrustSymbols {

    /** Has the real 10 % band in the test brokers (the others have a band that refuses only absurd moves). */
    public static final String BAND = "ADBE";
    public static final String FORGED = "NFLX";
    /** Also with the real band: a real gap (#55). */
    public static final String GAP = "RTX";
    /** Also with the real band: a walk of small steps (#55). */
    public static final String WALK = "PM";
    public static final String WRONG_EXCHANGE = "UNH";
    /** A forged first tick ({@code seq 1}) while the feed runs (#55). */
    public static final String RESTART = "MMM";

    private TickTrustSymbols() {
    }
}
