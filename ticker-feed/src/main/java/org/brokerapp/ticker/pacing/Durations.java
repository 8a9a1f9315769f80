package org.brokerapp.ticker.pacing;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as people write them on a command line: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}. */
public final class Durations {

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

    private Durations() {
    }

    /** Parses {@code 30s} and friends; the message of the exception says what is accepted. */
    public static Duration parse(String text) {
        Matcher m = text == null ? null : DURATION.matcher(text);
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration like 500ms, 30s, 2m or 1h");
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }

    /** {@code 30s}, {@code 1.5s}, {@code 250ms}. */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        return millis < 1000 ? millis + "ms" : format(millis / 1000.0) + "s";
    }

    /** A number without a needless {@code .0}. */
    static String format(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }
}
