package org.brokerapp.ticker.pacing;

import org.brokerapp.ticker.Tick;

/**
 * A tick and when it is due: {@code intendedNanos} after the feed started.
 */
public record ScheduledTick(long intendedNanos, Tick tick) {
}
