package org.brokerapp.infra.stack;

import java.time.Duration;
import java.util.Optional;

/**
 * What a node did when its disk filled.
 *
 * @param filledBytes what the drill wrote to fill it
 * @param downAfter   from the fill's start until the other nodes of its DC saw it down; empty when they never did
 * @param error       what the node did after the fill: its JVM's crash when it crashed (a full disk under a memory-mapped
 *                    commit log segment is a SIGBUS), else its disk failure policy's line from its log, else its first
 *                    logged error (its words, shortened), and the cause when it was a full disk
 */
public record DiskFull(long filledBytes, Optional<Duration> downAfter, Optional<String> error) {
}
