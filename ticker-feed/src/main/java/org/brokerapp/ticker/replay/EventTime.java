package org.brokerapp.ticker.replay;

/** Which time a replayed tick carries as its event time. */
public enum EventTime {
    /** The trade's time in the file: the replay reproduces history. */
    ORIGINAL,
    /** The time the tick is due to be sent, so consumers can measure latency from it. */
    NOW
}
