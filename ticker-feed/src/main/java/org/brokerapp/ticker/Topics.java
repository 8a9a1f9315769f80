package org.brokerapp.ticker;

/** Kafka topic names shared by the feed and its consumers; every region's Kafka has the same ones. */
public final class Topics {

    /** The ticks of the region's exchanges, keyed by symbol, values in {@link TickCodec} format. */
    public static final String TICKS = "ticks";

    /** Where a broker parks records of {@link #TICKS} it cannot decode or refuses to believe, with the reason in headers. */
    public static final String TICKS_DEAD_LETTER = "ticks.dead-letter";

    private Topics() {
    }
}
