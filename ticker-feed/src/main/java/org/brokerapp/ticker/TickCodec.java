package org.brokerapp.ticker;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * Tick format v1: one compact JSON object per Kafka record value, in UTF-8 (in practice ASCII).
 *
 * <pre>{"v":1,"symbol":"AAPL","exchange":"NASDAQ","price":"187.44","size":100,"seq":42,"ts":1763800000123456}</pre>
 *
 * <ul>
 *   <li>{@code v}: format version, the number {@value #VERSION}; a reader refuses any other;</li>
 *   <li>{@code price}: a decimal <em>string</em> ({@code 0|[1-9][0-9]*} with optional {@code .digits}, no
 *       sign or exponent), so no binary floating point ever touches it; its scale is kept;</li>
 *   <li>{@code size}, {@code seq}: whole numbers; {@code ts}: event time in microseconds since the Unix epoch;</li>
 *   <li>fields may come in any order; a field this version does not know is ignored, so v1 can gain
 *       optional fields; duplicate fields are refused.</li>
 * </ul>
 *
 * <p>{@link #decode} refuses anything else with a {@link MalformedTickException}. Both directions
 * are allocation-light and sustain millions of ticks per second on one core ({@code docs/benchmarks/README.md}).
 */
public final class TickCodec {

    public static final int VERSION = 1;
    /** A v1 tick is about 100 bytes; anything much larger is not one. */
    public static final int MAX_BYTES = 4096;

    private static final int MAX_PRICE_CHARS = Tick.MAX_PRICE_DIGITS + 2;
    private static final int MAX_SHOWN = 40;
    private static final JsonFactory JSON = JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private TickCodec() {
    }

    public static byte[] encode(Tick tick) {
        StringBuilder json = new StringBuilder(128)
                .append("{\"v\":").append(VERSION)
                .append(",\"symbol\":\"").append(tick.symbol())
                .append("\",\"exchange\":\"").append(tick.exchange())
                .append("\",\"price\":\"").append(tick.price().toPlainString())
                .append("\",\"size\":").append(tick.size())
                .append(",\"seq\":").append(tick.sequence())
                .append(",\"ts\":").append(tick.eventTimeMicros())
                .append('}');
        // Tick admits only ASCII in its strings, so one byte per char is exact
        return json.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Reads a v1 tick, or throws {@link MalformedTickException} saying what is wrong. */
    public static Tick decode(byte[] value) {
        if (value == null) {
            throw new MalformedTickException("no value (null)");
        }
        if (value.length == 0) {
            throw new MalformedTickException("empty value");
        }
        if (value.length > MAX_BYTES) {
            throw new MalformedTickException("value of " + value.length + " bytes, more than the " + MAX_BYTES + " a tick may have");
        }
        Fields fields = new Fields();
        try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), value)) {
            fields.read(parser);
        } catch (JacksonException e) {
            throw new MalformedTickException("not JSON: " + firstLine(e.getOriginalMessage()));
        }
        return fields.toTick();
    }

    /** The fields as read; problems are kept until the version is known, so a v2 tick says "version 2" first. */
    private static final class Fields {
        private String versionProblem = "missing field 'v' (the format version)";
        private String problem;
        private String symbol;
        private String exchange;
        private String price;
        private long size;
        private long sequence;
        private long micros;
        private boolean hasSize;
        private boolean hasSequence;
        private boolean hasMicros;

        void read(JsonParser parser) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new MalformedTickException("not a JSON object");
            }
            for (String name = parser.nextName(); name != null; name = parser.nextName()) {
                JsonToken token = parser.nextToken();
                switch (name) {
                    case "v" -> version(parser, token);
                    case "symbol" -> symbol = text(parser, token, "symbol");
                    case "exchange" -> exchange = text(parser, token, "exchange");
                    case "price" -> price = text(parser, token, "price");
                    case "size" -> {
                        size = whole(parser, token, "size");
                        hasSize = true;
                    }
                    case "seq" -> {
                        sequence = whole(parser, token, "seq");
                        hasSequence = true;
                    }
                    case "ts" -> {
                        micros = whole(parser, token, "ts");
                        hasMicros = true;
                    }
                    default -> parser.skipChildren();
                }
            }
            if (parser.nextToken() != null) {
                problem("content after the tick object");
            }
        }

        Tick toTick() {
            if (versionProblem != null) {
                throw new MalformedTickException(versionProblem);
            }
            if (problem != null) {
                throw new MalformedTickException(problem);
            }
            requirePresent(symbol != null, "symbol");
            requirePresent(exchange != null, "exchange");
            requirePresent(price != null, "price");
            requirePresent(hasSize, "size");
            requirePresent(hasSequence, "seq");
            requirePresent(hasMicros, "ts");
            if (!isPlainDecimal(price)) {
                throw new MalformedTickException("price must be a decimal string like \"187.44\", was " + shown(price, MAX_SHOWN));
            }
            try {
                Instant eventTime = Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
                return new Tick(symbol, exchange, new BigDecimal(price), size, sequence, eventTime);
            } catch (IllegalArgumentException e) {
                throw new MalformedTickException(e.getMessage());
            }
        }

        private void version(JsonParser parser, JsonToken token) {
            if (token != JsonToken.VALUE_NUMBER_INT) {
                versionProblem = "field 'v' must be the number " + VERSION + ", was " + describe(parser, token);
            } else if (parser.getNumberType() != JsonParser.NumberType.INT || parser.getIntValue() != VERSION) {
                versionProblem = "unsupported version " + shown(parser.getString(), MAX_SHOWN) + " (this reader knows version " + VERSION + ")";
            } else {
                versionProblem = null;
            }
        }

        private String text(JsonParser parser, JsonToken token, String field) {
            if (token == JsonToken.VALUE_STRING) {
                return parser.getString();
            }
            problem("field '" + field + "' must be a string, was " + describe(parser, token));
            parser.skipChildren();
            return "";
        }

        private long whole(JsonParser parser, JsonToken token, String field) {
            if (token == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                return parser.getLongValue();
            }
            problem("field '" + field + "' must be a whole number within 64 bits, was " + describe(parser, token));
            parser.skipChildren();
            return 0;
        }

        private void problem(String text) {
            if (problem == null) {
                problem = text;
            }
        }

        private static void requirePresent(boolean present, String field) {
            if (!present) {
                throw new MalformedTickException("missing field '" + field + "'");
            }
        }

        private static String describe(JsonParser parser, JsonToken token) {
            return switch (token) {
                case START_OBJECT -> "an object";
                case START_ARRAY -> "an array";
                case VALUE_NULL -> "null";
                case VALUE_TRUE, VALUE_FALSE -> parser.getString();
                case VALUE_STRING -> "the string " + shown(parser.getString(), MAX_SHOWN);
                default -> shown(parser.getString(), MAX_SHOWN);
            };
        }
    }

    /** {@code 0|[1-9][0-9]*} with an optional {@code .[0-9]+}: what {@link BigDecimal#toPlainString()} writes for a price. */
    static boolean isPlainDecimal(String s) {
        int n = s.length();
        if (n == 0 || n > MAX_PRICE_CHARS) {
            return false;
        }
        int i = 0;
        if (s.charAt(0) == '0') {
            i = 1;
        } else {
            while (i < n && isDigit(s.charAt(i))) {
                i++;
            }
            if (i == 0) {
                return false;
            }
        }
        if (i == n) {
            return true;
        }
        if (s.charAt(i) != '.' || i + 1 == n) {
            return false;
        }
        for (i++; i < n; i++) {
            if (!isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String firstLine(String message) {
        String line = message == null ? "unreadable" : message.lines().findFirst().orElse("unreadable");
        return line.length() > 160 ? line.substring(0, 160) + "..." : line;
    }

    /** A value as an error message may quote it: on one line, shortened. */
    private static String shown(String text, int max) {
        if (text == null) {
            return "null";
        }
        StringBuilder shown = new StringBuilder();
        for (int i = 0; i < text.length() && shown.length() < max; i++) {
            char c = text.charAt(i);
            shown.append(c < ' ' || c == 0x7f ? '?' : c);
        }
        String quoted = "\"" + shown + "\"";
        return text.length() > max ? quoted + "..." : quoted;
    }
}
