package org.brokerapp.broker.web;

import java.math.BigDecimal;

/**
 * What an error answer may quote of the request: at most {@value #MAX_CHARS} printable characters.
 * A client's value is echoed so the client can see which one was wrong, never in full: a number such
 * as {@code 1e-50000000} is 50 MB in plain form, and an answer must never be bigger than the question.
 */
public final class Excerpt {

    public static final int MAX_CHARS = 32;

    private Excerpt() {
    }

    /** The number in plain form when that is short ({@code 187.44}), else in scientific form ({@code 1E-50000000}), cut to size. */
    public static String of(BigDecimal number) {
        if (number == null) {
            return "null";
        }
        // plain form is as long as the digits plus the zeros the exponent adds: estimate before building it
        long plainLength = (long) number.precision() + Math.abs((long) number.scale()) + 2;
        return of(plainLength <= MAX_CHARS ? number.toPlainString() : number.toString());
    }

    /** The text with control and non-ASCII characters as {@code ?}, cut to {@value #MAX_CHARS} characters and "...". */
    public static String of(Object value) {
        if (value == null) {
            return "null";
        }
        String text = value instanceof BigDecimal number ? of(number) : String.valueOf(value);
        StringBuilder shown = new StringBuilder(Math.min(text.length(), MAX_CHARS + 3));
        for (int i = 0; i < text.length() && i < MAX_CHARS; i++) {
            char c = text.charAt(i);
            shown.append(c < 0x20 || c > 0x7e ? '?' : c);
        }
        return text.length() > MAX_CHARS ? shown + "..." : shown.toString();
    }
}
