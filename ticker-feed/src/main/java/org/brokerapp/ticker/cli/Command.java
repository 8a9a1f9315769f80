package org.brokerapp.ticker.cli;

import java.nio.file.Path;

import org.brokerapp.ticker.pacing.Burst;
import org.brokerapp.ticker.pacing.RunLength;
import org.brokerapp.ticker.replay.EventTime;
import org.brokerapp.ticker.replay.Speed;

/** What the command line asks for. */
public sealed interface Command {

    /** Print the usage. */
    record Help() implements Command {
    }

    /** Print the version. */
    record Version() implements Command {
    }

    /**
     * Simulated ticks.
     *
     * @param rate ticks per second per region
     * @param skew Zipf exponent of symbol popularity
     */
    record Simulate(FeedOptions feed, double rate, RunLength length, long seed, double skew, Burst burst) implements Command {
    }

    /** Trades from a file. */
    record Replay(FeedOptions feed, Path file, Speed speed, EventTime eventTime) implements Command {
    }
}
