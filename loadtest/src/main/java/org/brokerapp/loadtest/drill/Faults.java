package org.brokerapp.loadtest.drill;

import java.time.Duration;
import java.util.Optional;

/** What a drill does to the target: implemented by the local stack and its brokers. */
public interface Faults {

    /** Kills the region's broker (its first instance, where it runs several) as a crash would (SIGKILL), and returns once it is gone. */
    void killBroker(String region);

    /**
     * After {@link #killBroker}, in a region of several instances: returns once the survivors decide for everything the
     * region's instances decided before the kill (its symbols and customers), with the time since the kill; empty where
     * the killed broker was the region's only one.
     */
    Optional<Duration> awaitBrokerTakeOver(String region);

    /** Starts the region's broker again and returns once it is ready: the time from its start to ready. */
    Duration restartBroker(String region);

    /** Kills one Cassandra node of the region's DC, always the same one and never a seed, as a crash would (SIGKILL). */
    void killCassandraNode(String region);

    /** Starts that node again on its data and returns once the whole cluster sees it up: the time that took. */
    Duration restartCassandraNode(String region);

    /**
     * Fills the data disk of that node (the one {@link #killCassandraNode} kills), has it flush, and returns once the
     * other nodes of its DC see it down, or a while after: what it did, in a line.
     */
    String fillCassandraDisk(String region);

    /** Frees that disk and starts the node again on its data: the time until the whole cluster sees it up. */
    Duration freeCassandraDisk(String region);

    /** Kills the region's Kafka broker as a crash would (SIGKILL), and returns once it is gone. */
    void killKafka(String region);

    /** Starts the region's Kafka broker again on its data and returns once it accepts clients: the time that took. */
    Duration restartKafka(String region);

    /** Steps the region's broker wall clock forward to {@code offset} from the host's, as a bad NTP step would. */
    void stepBrokerClock(String region, Duration offset);

    /** Cuts every WAN link of the region. */
    void cut(String region);

    void heal(String region);
}
