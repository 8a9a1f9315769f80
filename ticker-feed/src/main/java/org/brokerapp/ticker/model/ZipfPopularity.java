package org.brokerapp.ticker.model;

import java.util.Arrays;

/**
 * How often each of {@code n} symbols trades: the symbol of rank {@code k} (1-based) gets a share
 * proportional to {@code 1 / k^exponent}. Exponent 0 is uniform; around 1 a few symbols are hot and
 * the long tail is quiet, as on real exchanges.
 */
public final class ZipfPopularity {

    public static final double MAX_EXPONENT = 10;

    private final double[] cumulative;

    public ZipfPopularity(int n, double exponent) {
        if (n < 1) {
            throw new IllegalArgumentException("need at least one symbol, was " + n);
        }
        if (!(exponent >= 0 && exponent <= MAX_EXPONENT)) {
            throw new IllegalArgumentException("skew must be 0 to " + (int) MAX_EXPONENT + ", was " + exponent);
        }
        cumulative = new double[n];
        double sum = 0;
        for (int k = 1; k <= n; k++) {
            sum += 1 / StrictMath.pow(k, exponent);
            cumulative[k - 1] = sum;
        }
        for (int i = 0; i < n; i++) {
            cumulative[i] /= sum;
        }
        cumulative[n - 1] = 1;
    }

    /** The 0-based rank whose share contains {@code uniform}, a number in [0, 1). */
    public int sample(double uniform) {
        int i = Arrays.binarySearch(cumulative, uniform);
        // an exact hit on a boundary belongs to the next rank, as each rank's interval is [lower, upper)
        int rank = i >= 0 ? i + 1 : -i - 1;
        return Math.min(rank, cumulative.length - 1);
    }

    /** The expected share of ticks of the 0-based rank. */
    public double share(int rank) {
        return rank == 0 ? cumulative[0] : cumulative[rank] - cumulative[rank - 1];
    }

    public int size() {
        return cumulative.length;
    }
}
