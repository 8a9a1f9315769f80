package org.brokerapp.loadtest.run;

import java.util.Locale;

import org.brokerapp.loadtest.measure.Counters;

/** The one line printed every few seconds while load runs. Pure formatting. */
public final class LiveProgress {

    private LiveProgress() {
    }

    /**
     * @param interval   what happened since the previous line
     * @param fills      fills per second in the interval from the brokers' counters, or negative if unknown
     * @param p99Placement p99 of LIMIT/STOP placement so far in the phase (ms), negative if none
     * @param p99Market  p99 of MARKET orders so far in the phase (ms), negative if none
     * @param p99TickToFill p99 ticker-to-fill so far in the phase (ms), negative if none
     * @param upperBound  whether that p99 is a bucket's upper bound (brokers without exact histograms) rather than exact
     */
    public static String line(String phase, double elapsedInPhase, double phaseLength, Counters.Snapshot interval, double fills,
                              long errorsTotal, double p99Placement, double p99Market, double p99TickToFill, boolean upperBound) {
        double s = Math.max(interval.seconds(), 1e-9);
        return String.format(Locale.ROOT, "%s %.0f/%.0f s: orders %.0f/s sent, %.0f/s ok | ticks %.0f/s | fills %s/s | errors %d (+%d)"
                        + " | p99 so far: placement %s, market %s, ticker-to-fill %s",
                phase, elapsedInPhase, phaseLength, interval.ordersSent() / s, interval.ordersAccepted() / s, interval.ticksSent() / s,
                fills < 0 ? "?" : String.format(Locale.ROOT, "%.0f", fills), errorsTotal,
                interval.ordersFailed() + interval.ticksFailed() + interval.floorFailed(),
                ms(p99Placement), ms(p99Market), p99TickToFill < 0 ? "-" : (upperBound ? "<= " : "") + ms(p99TickToFill));
    }

    static String ms(double millis) {
        return millis < 0 ? "-" : String.format(Locale.ROOT, millis < 10 ? "%.2f ms" : "%.1f ms", millis);
    }
}
