package org.brokerapp.loadtest.workload;

import java.time.Instant;
import java.util.Map;

import org.brokerapp.loadtest.measure.Counters;
import org.brokerapp.loadtest.measure.ErrorKinds;
import org.brokerapp.loadtest.measure.LatencyBook;
import org.brokerapp.loadtest.measure.Measures;
import org.brokerapp.ticker.Tick;
import org.brokerapp.ticker.TickProducer;

/**
 * Publishes one region's ticks to that region's Kafka, keyed by symbol as the ticker feed does.
 * A tick's event time is its intended send time, so the brokers' ticker-to-fill runs from the
 * intended start too: a harness falling behind its schedule shows as latency, never hides it.
 * Each tick's first leg, from its intended send to Kafka's acknowledgement, is timed here.
 */
public final class TickPublisher implements AutoCloseable {

    private final TickProducer producer;
    private final TickPlanner planner;
    private final LatencyBook latencies;
    private final String produced;
    private final Counters counters;
    private final ErrorKinds errors;
    private final String region;
    private final long anchorNanos = System.nanoTime();
    private final Instant anchor = Instant.now();

    /** {@code kafka}: where the region's Kafka answers and the login the ticks are written with. */
    public TickPublisher(String region, Map<String, Object> kafka, TickPlanner planner, LatencyBook latencies, Counters counters,
                         ErrorKinds errors) {
        this.region = region;
        this.planner = planner;
        this.latencies = latencies;
        this.produced = Measures.tickProduced(region);
        this.counters = counters;
        this.errors = errors;
        this.producer = TickProducer.sendingEachAtOnce(kafka, "loadtest-ticks-" + region);
    }

    /** Called from the region's tick loop only. */
    public void publish(long intendedStartNanos) {
        Tick tick = planner.next(anchor.plusNanos(intendedStartNanos - anchorNanos));
        counters.ticksSent.increment();
        producer.send(tick, (metadata, e) -> {
            if (e != null) {
                counters.ticksFailed.increment();
                errors.count("tick " + region + ": " + ErrorKinds.ofThrowable(e));
            } else {
                latencies.record(produced, intendedStartNanos);
            }
        });
    }

    @Override
    public void close() {
        producer.close();
    }
}
