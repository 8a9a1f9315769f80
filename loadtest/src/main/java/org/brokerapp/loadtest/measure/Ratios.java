package org.brokerapp.loadtest.measure;

/** A measure set against a reference: the floor write's percentiles, or the emulated WAN round trip. */
public final class Ratios {

    private Ratios() {
    }

    /** {@code value / reference}, rounded to two decimals; null when either is unknown or the reference is zero. */
    public static Double of(double value, double reference) {
        if (!(value >= 0) || !(reference > 0) || Double.isInfinite(value) || Double.isInfinite(reference)) {
            return null;
        }
        return Math.round(value / reference * 100) / 100.0;
    }
}
