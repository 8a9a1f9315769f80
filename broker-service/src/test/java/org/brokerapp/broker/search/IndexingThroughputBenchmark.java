package org.brokerapp.broker.search;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.brokerapp.api.Side;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.stack.LocalStack;
import org.junit.jupiter.api.Test;

/**
 * Indexing throughput and lag against the real node (docs/benchmarks/log/2026-11-22-search-indexing.md). Not part of the
 * suite (the name does not end in Tests); run it with
 * {@code ./mvnw -pl broker-service verify -Dtest=IndexingThroughputBenchmark -Dstack.cassandra=false}.
 * Phase 1: a backlog of events, then the indexer: events/s. Phase 2: a steady rate with the
 * indexer running: lag (durableAt to searchable) p50/p99. Both with the node's CPU and RSS.
 */
@LocalStackTest
class IndexingThroughputBenchmark {

    static final int BACKLOG_ORDERS = Integer.getInteger("bench.orders", 10_000);
    static final int STEADY_RATE = Integer.getInteger("bench.rate", 200);
    static final int STEADY_SECONDS = Integer.getInteger("bench.seconds", 60);

    @Test
    void measure(LocalStack stack) throws Exception {
        try (SearchFixture fx = new SearchFixture(stack)) {
            String region = fx.region(0);
            ServerProcess node = stack.processes().stream().filter(p -> p.name().equals("elasticsearch " + region)).findFirst().orElseThrow();
            String customer = "bench-" + UUID.randomUUID().toString().substring(0, 8);
            List<OrderEvent> backlog = new ArrayList<>();
            Instant t0 = Instant.now();
            for (int i = 0; i < BACKLOG_ORDERS; i++) {
                Order o = SearchFixture.order(customer, "SYM" + (i % 50), i % 2 == 0 ? Side.BUY : Side.SELL, 1 + i % 9, "100.25", region, t0.plusMillis(i));
                backlog.add(SearchFixture.placed(o));
                backlog.add(SearchFixture.fill(o, "100.20", t0.plusMillis(i + 5), region));
            }
            fx.publish(region, backlog);

            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            long cpu0 = cpuTicks(node.pid());
            long start = System.nanoTime();
            fx.startIndexer(region, "bench-" + customer, registry);
            SearchFixture.await("backlog indexed", Duration.ofMinutes(10),
                    () -> registry.get("broker.search.events.indexed").counter().count() >= backlog.size());
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuSeconds = (cpuTicks(node.pid()) - cpu0) / 100.0;
            System.out.printf("BENCH backlog: %d events (%d order + %d trade documents) in %.1f s = %.0f events/s; node CPU %.1f s (%.0f %% of one core); RSS %d MB%n",
                    backlog.size(), BACKLOG_ORDERS, BACKLOG_ORDERS, seconds, backlog.size() / seconds, cpuSeconds, 100 * cpuSeconds / seconds,
                    node.rssBytes().orElse(0L) / (1024 * 1024));

            SimpleMeterRegistry steady = new SimpleMeterRegistry();
            fx.stopIndexers();
            fx.startIndexer(region, "bench-" + customer, steady); // same group: starts after the backlog
            Thread.sleep(5_000);
            long cpu1 = cpuTicks(node.pid());
            long steadyStart = System.nanoTime();
            int sent = 0;
            for (int second = 0; second < STEADY_SECONDS; second++) {
                long tickStart = System.nanoTime();
                List<OrderEvent> events = new ArrayList<>();
                for (int i = 0; i < STEADY_RATE / 2; i++) {
                    Instant now = Instant.now();
                    Order o = SearchFixture.order(customer, "SYM" + (i % 50), Side.BUY, 5, "100.25", region, now);
                    events.add(OrderEvent.placed(o, now, region));
                    events.add(SearchFixture.fill(o, "100.20", now, region));
                }
                fx.publish(region, events);
                sent += events.size();
                long left = 1_000 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - tickStart);
                if (left > 0) {
                    Thread.sleep(left);
                }
            }
            int total = sent;
            SearchFixture.await("steady events indexed", Duration.ofMinutes(5),
                    () -> steady.get("broker.search.events.indexed").counter().count() >= total);
            double steadySeconds = (System.nanoTime() - steadyStart) / 1e9;
            double steadyCpu = (cpuTicks(node.pid()) - cpu1) / 100.0;
            Timer lag = steady.get("broker.search.indexing.lag").timer();
            double p50 = 0;
            double p99 = 0;
            for (ValueAtPercentile v : lag.takeSnapshot().percentileValues()) {
                if (v.percentile() == 0.5) {
                    p50 = v.value(TimeUnit.MILLISECONDS);
                } else if (v.percentile() == 0.99) {
                    p99 = v.value(TimeUnit.MILLISECONDS);
                }
            }
            System.out.printf("BENCH steady: %d events/s offered for %d s (%d events); lag p50 %.0f ms, p99 %.0f ms, max %.0f ms; node CPU %.0f %% of one core; RSS %d MB%n",
                    STEADY_RATE, STEADY_SECONDS, total, p50, p99, lag.max(TimeUnit.MILLISECONDS), 100 * steadyCpu / steadySeconds,
                    node.rssBytes().orElse(0L) / (1024 * 1024));
        }
    }

    private static long cpuTicks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime + stime
    }
}
