package org.brokerapp.loadtest.report;

import java.util.Locale;

/** Numbers as the reports print them. */
final class Format {

    private Format() {
    }

    /** Milliseconds: "-" when unknown (negative), "<= x" for broker bucket bounds. */
    static String ms(double millis, boolean upperBound) {
        if (millis < 0) {
            return "-";
        }
        String v = String.format(Locale.ROOT, millis < 10 ? "%.2f" : millis < 1000 ? "%.1f" : "%,.0f", millis);
        return upperBound ? "<= " + v : v;
    }

    static String ratio(Double r) {
        return r == null ? "-" : String.format(Locale.ROOT, "%.2fx", r);
    }

    static String rate(double perSecond) {
        return perSecond < 0 ? "-" : String.format(Locale.ROOT, perSecond < 10 ? "%.1f" : "%,.0f", perSecond);
    }
}
