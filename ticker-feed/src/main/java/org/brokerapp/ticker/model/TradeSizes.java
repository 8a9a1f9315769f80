package org.brokerapp.ticker.model;

import java.util.Random;

/**
 * Shares per trade: a quarter are odd lots (1-99 shares), the rest round lots of 100, mostly one to
 * three of them (geometric, at most {@value #MAX_LOTS}).
 */
final class TradeSizes {

    static final int MAX_LOTS = 50;

    private TradeSizes() {
    }

    static long next(Random random) {
        if (random.nextInt(4) == 0) {
            return 1 + random.nextInt(99);
        }
        int lots = 1;
        while (lots < MAX_LOTS && random.nextInt(100) < 45) {
            lots++;
        }
        return 100L * lots;
    }
}
