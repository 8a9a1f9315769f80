package org.brokerapp.ticker.replay;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One trade of a replay file.
 *
 * @param line the line of the file it came from, for messages
 */
public record ReplayRow(int line, Instant time, String symbol, String exchange, BigDecimal price, long size) {
}
