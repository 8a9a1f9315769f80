package org.brokerapp.ticker.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.regex.Pattern;

import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;

/**
 * Reads a replay file row by row (format: {@link ReplayFile}), refusing the first bad row with a
 * {@link ReplayFileException} that names its line.
 */
final class ReplayRows implements Iterator<ReplayRow>, AutoCloseable {

    private static final int FIELDS = 5;
    // digits with an optional fraction: no sign, exponent or blank that BigDecimal would take or a person would not mean
    private static final Pattern PRICE = Pattern.compile("\\d{1,9}(\\.\\d{1,9})?");
    private static final Pattern SIZE = Pattern.compile("\\d{1,15}");

    private final Path path;
    private final SymbolUniverse universe;
    private final BufferedReader reader;
    private int lineNumber;
    private boolean headerSeen;
    private ReplayRow previous;
    private ReplayRow next;

    ReplayRows(Path path, SymbolUniverse universe) {
        this.path = path;
        this.universe = universe;
        try {
            this.reader = Files.newBufferedReader(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ReplayFileException("cannot read replay file " + path + ": " + reason(e), e);
        }
    }

    @Override
    public boolean hasNext() {
        if (next == null) {
            next = read();
        }
        return next != null;
    }

    @Override
    public ReplayRow next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        ReplayRow row = next;
        next = null;
        previous = row;
        return row;
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ReplayRow read() {
        try {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (!headerSeen) {
                    if (!line.equals(ReplayFile.HEADER)) {
                        throw bad("the header must be '" + ReplayFile.HEADER + "', was '" + line + "'");
                    }
                    headerSeen = true;
                    continue;
                }
                return parse(line);
            }
            if (!headerSeen) {
                throw new ReplayFileException(path + " has no header line '" + ReplayFile.HEADER + "'");
            }
            return null;
        } catch (IOException | UncheckedIOException e) {
            // e.g. bytes that are not UTF-8
            throw new ReplayFileException("cannot read replay file " + path + " after line " + lineNumber + ": " + reason(e), e);
        }
    }

    private ReplayRow parse(String line) {
        if (line.indexOf('"') >= 0) {
            throw bad("quoted fields are not supported (no field of a trade needs a comma)");
        }
        String[] fields = line.split(",", -1);
        if (fields.length != FIELDS) {
            throw bad("expected " + FIELDS + " fields (" + ReplayFile.HEADER + "), found " + fields.length);
        }
        Instant time = time(fields[0]);
        if (previous != null && time.isBefore(previous.time())) {
            throw bad("time " + fields[0] + " is earlier than line " + previous.line() + "'s " + previous.time() + " (rows must be in time order)");
        }
        String symbol = fields[1];
        Listing listing = universe.find(symbol).orElseThrow(() -> bad("unknown symbol '" + symbol + "' (not in the symbol universe)"));
        String exchange = fields[2];
        if (!listing.exchange().equals(exchange)) {
            throw bad(symbol + " is listed on " + listing.exchange() + ", not on '" + exchange + "'");
        }
        return new ReplayRow(lineNumber, time, symbol, exchange, price(fields[3]), size(fields[4]));
    }

    private Instant time(String field) {
        Instant time;
        try {
            time = Instant.parse(field);
        } catch (DateTimeParseException e) {
            throw bad("time is not an ISO-8601 UTC instant like 2025-11-21T14:30:00.000125Z: '" + field + "'");
        }
        if (time.getNano() % 1_000 != 0) {
            throw bad("time has more than microsecond precision: '" + field + "'");
        }
        if (time.getEpochSecond() < 0) {
            throw bad("time is before 1970: '" + field + "'");
        }
        return time;
    }

    private BigDecimal price(String field) {
        if (!PRICE.matcher(field).matches()) {
            throw bad("price is not a decimal like 187.44: '" + field + "'");
        }
        BigDecimal price = new BigDecimal(field);
        if (price.signum() <= 0) {
            throw bad("price must be > 0, was " + field);
        }
        return price;
    }

    private long size(String field) {
        if (!SIZE.matcher(field).matches()) {
            throw bad("size is not a whole number of shares: '" + field + "'");
        }
        long size = Long.parseLong(field);
        if (size <= 0) {
            throw bad("size must be > 0, was " + field);
        }
        return size;
    }

    private ReplayFileException bad(String problem) {
        return new ReplayFileException(path + " line " + lineNumber + ": " + problem);
    }

    private static String reason(Exception e) {
        Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null ? "" : " " + message.lines().findFirst().orElse(""));
    }
}
