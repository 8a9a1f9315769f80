package org.brokerapp.loadtest.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;
import org.brokerapp.loadtest.deployment.Target;
import org.brokerapp.loadtest.measure.BrokerScraper;
import org.brokerapp.loadtest.measure.Counters;
import org.brokerapp.loadtest.measure.ExactLatency;
import org.brokerapp.loadtest.measure.LatencySummary;
import org.brokerapp.loadtest.measure.Measures;
import org.brokerapp.loadtest.measure.Ratios;
import org.brokerapp.loadtest.prometheus.PrometheusHistogram;
import org.brokerapp.loadtest.report.MeasureResult;
import org.brokerapp.loadtest.report.Throughput;
import org.brokerapp.loadtest.report.TimelinePoint;
import org.brokerapp.loadtest.report.WindowResult;
import org.brokerapp.loadtest.workload.WorkloadSpec;
import org.brokerapp.regions.RegionsModel;

/**
 * Turns a window's raw figures into its report rows: the floor per region (and all regions
 * together), ticker-to-fill and receipt-to-fill per region from the brokers' exact HdrHistograms (their
 * Prometheus buckets for brokers without {@code /actuator/latency}), placement and market latency by
 * placing region, local or cross-region; each set against the floor of its region and, when it
 * crosses regions, against the emulated WAN round trip.
 */
final class WindowResults {

    private WindowResults() {
    }

    static WindowResult assemble(WorkloadSpec spec, Target target, double seconds, Counters.Snapshot measured, BrokerScraper.Scrape brokers,
                                 Map<String, Histogram> client, Map<String, Long> errors, List<TimelinePoint> timeline, long lagMillis) {
        Map<String, LatencySummary> floors = new TreeMap<>();
        Histogram allFloors = new Histogram(3);
        client.forEach((name, h) -> {
            if (name.startsWith(Measures.FLOOR)) {
                floors.put(Measures.regionOf(name), LatencySummary.of(h));
                allFloors.add(h);
            }
        });
        LatencySummary floorAll = LatencySummary.of(allFloors);
        List<MeasureResult> rows = new ArrayList<>();
        floors.forEach((region, f) -> rows.add(row(Measures.floor(region), MeasureResult.CLIENT, region, false, f, f, null)));
        if (floors.size() > 1) {
            rows.add(row(Measures.allRegions(Measures.FLOOR), MeasureResult.CLIENT, null, false, floorAll, floorAll, null));
        }
        Map<String, Histogram> exactTickToFill = brokers.exact(ExactLatency.TICK_TO_FILL);
        if (!exactTickToFill.isEmpty()) {
            exactRows(rows, Measures.TICKER_TO_FILL, exactTickToFill, floors, floorAll);
            exactRows(rows, Measures.RECEIPT_TO_FILL, brokers.exact(ExactLatency.RECEIPT_TO_FILL), floors, floorAll);
            // where a placement's time goes (the broker's request, the owner's work and its durable steps), however the broker names them
            // (and how long a refusal took, when some region could not be reached): a measure without a sample in the window has no row
            brokers.exactMeasures().stream().filter(m -> !m.equals(ExactLatency.TICK_TO_FILL) && !m.equals(ExactLatency.RECEIPT_TO_FILL))
                    .filter(measure -> brokers.exact(measure).values().stream().anyMatch(h -> h.getTotalCount() > 0))
                    .forEach(measure -> exactRows(rows, measure, brokers.exact(measure), floors, floorAll));
        }
        PrometheusHistogram tickToFillAll = PrometheusHistogram.EMPTY;
        // the Prometheus buckets only where no broker has the exact histograms (one that predates /actuator/latency)
        for (Map.Entry<String, PrometheusHistogram> e : exactTickToFill.isEmpty() ? brokers.tickToFill().entrySet()
                : Map.<String, PrometheusHistogram>of().entrySet()) {
            tickToFillAll = tickToFillAll.plus(e.getValue());
            rows.add(row(Measures.tickerToFill(e.getKey()), MeasureResult.BROKER_BUCKETS, e.getKey(), false, LatencySummary.of(e.getValue()),
                    floors.getOrDefault(e.getKey(), floorAll), null));
        }
        if (exactTickToFill.isEmpty() && brokers.tickToFill().size() > 1) {
            rows.add(row(Measures.allRegions(Measures.TICKER_TO_FILL), MeasureResult.BROKER_BUCKETS, null, false,
                    LatencySummary.of(tickToFillAll), floorAll, null));
        }
        // the WAN's floor: a bare round trip into each region, against the configured one (no write floor to compare it with)
        client.forEach((name, h) -> {
            if (name.startsWith(Measures.WAN_FLOOR)) {
                String region = Measures.regionOf(name);
                rows.add(row(name, MeasureResult.CLIENT, region, false, LatencySummary.of(h), LatencySummary.of(PrometheusHistogram.EMPTY),
                        roundTripFrom(target.regions(), region)));
            }
        });
        // indexing lag: each region's own index; no floor to compare it with (it is not a Cassandra write)
        brokers.indexingLag().forEach((region, lag) -> rows.add(row(Measures.indexingLag(region), MeasureResult.BROKER_BUCKETS, region, false,
                LatencySummary.of(lag), LatencySummary.of(PrometheusHistogram.EMPTY), null)));
        RegionsModel regions = target.regions();
        // the harness's own measures of the load, each against its region's floor: orders, refusals, a tick's first leg, and a
        // fill's way to a customer's stream
        client.forEach((name, h) -> {
            if (name.startsWith(Measures.PLACEMENT) || name.startsWith(Measures.MARKET) || name.startsWith(Measures.REFUSED)
                    || name.startsWith(Measures.TICK_PRODUCED) || name.startsWith(Measures.FILL_TO_CUSTOMER)) {
                String region = Measures.regionOf(name);
                boolean cross = Measures.isCrossRegion(name);
                rows.add(row(name, MeasureResult.CLIENT, region, cross, LatencySummary.of(h), floors.getOrDefault(region, floorAll),
                        cross ? roundTripFrom(regions, region) : null));
            }
        });
        double s = Math.max(seconds, 1e-9);
        Throughput throughput = new Throughput(spec.ordersPerSecond(), measured.ordersSent() / s, measured.ordersAccepted() / s,
                measured.ordersFailed() / s, measured.marketFilled() / s, spec.ticksPerSecond(), measured.ticksSent() / s,
                spec.expectedTradesPerSecond(), brokers.totalFills() / s, measured.floorWrites() / s);
        return new WindowResult(Math.round(seconds * 10) / 10.0, throughput, rows, errors, timeline, lagMillis, brokers.complete());
    }

    /** One row per region from the brokers' exact histograms, and one for all regions merged when there are several. */
    private static void exactRows(List<MeasureResult> rows, String measure, Map<String, Histogram> byRegion, Map<String, LatencySummary> floors,
                                  LatencySummary floorAll) {
        Histogram all = new Histogram(3);
        byRegion.forEach((region, h) -> {
            all.add(h);
            rows.add(row(measure + " @" + region, MeasureResult.BROKER_EXACT, region, false, LatencySummary.of(h),
                    floors.getOrDefault(region, floorAll), null));
        });
        if (byRegion.size() > 1) {
            rows.add(row(Measures.allRegions(measure), MeasureResult.BROKER_EXACT, null, false, LatencySummary.of(all), floorAll, null));
        }
    }

    static MeasureResult row(String name, String source, String region, boolean cross, LatencySummary latency, LatencySummary floor,
                             Double rttMillis) {
        boolean known = !latency.noSamples() && !floor.noSamples();
        return new MeasureResult(name, source, region, cross, latency,
                known ? Ratios.of(latency.p50(), floor.p50()) : null, known ? Ratios.of(latency.p99(), floor.p99()) : null, rttMillis,
                rttMillis == null || latency.noSamples() ? null : Ratios.of(latency.p50(), rttMillis),
                rttMillis == null || latency.noSamples() ? null : Ratios.of(latency.p99(), rttMillis));
    }

    /** The longest emulated round trip from a region to any other: what a request placed there and executed elsewhere crosses. */
    static Double roundTripFrom(RegionsModel regions, String region) {
        return regions.names().stream().filter(r -> !r.equals(region))
                .mapToDouble(r -> regions.roundTrip(region, r).toMillis()).max().stream().boxed().findFirst().orElse(null);
    }
}
