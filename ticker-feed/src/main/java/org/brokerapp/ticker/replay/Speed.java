package org.brokerapp.ticker.replay;

import java.time.Duration;

/** How fast a replay runs relative to the trades' own pace. */
public sealed interface Speed {

    /** When a trade this long after the file's first trade is due, after the replay started. */
    long offsetNanos(Duration sinceFirstTrade);

    /** {@code max}, or a factor &gt; 0 such as {@code 1} (original pace), {@code 10} or {@code 0.5}. */
    static Speed parse(String text) {
        if ("max".equals(text)) {
            return new Max();
        }
        try {
            return new Factor(Double.parseDouble(text));
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException("speed must be a number > 0 (1 = original pace) or max, was '" + text + "'");
        }
    }

    /** {@code times} faster than the original. */
    record Factor(double times) implements Speed {
        public Factor {
            if (!(times > 0 && Double.isFinite(times))) {
                throw new IllegalArgumentException("speed must be a number > 0 (1 = original pace) or max, was " + times);
            }
        }

        @Override
        public long offsetNanos(Duration sinceFirstTrade) {
            return (long) (sinceFirstTrade.toNanos() / times);
        }

        @Override
        public String toString() {
            return times == 1 ? "original pace" : times + "x";
        }
    }

    /** As fast as the sender goes. */
    record Max() implements Speed {
        @Override
        public long offsetNanos(Duration sinceFirstTrade) {
            return 0;
        }

        @Override
        public String toString() {
            return "max";
        }
    }
}
