package org.brokerapp.regions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The symbols every module shares: brokers match orders on them, the ticker feed simulates their
 * prices. Read from {@code infra/symbols.csv}, packaged into this module's jar as the default.
 *
 * <p>The file is CSV (RFC 4180) with the header {@value #HEADER}; lines starting with {@code #} and
 * blank lines are skipped. A field may be quoted to hold commas ({@code "Apple, Inc."}) or doubled
 * quotes, but not line breaks: one listing is one line, so errors can name their line.
 */
public final class SymbolUniverse {

    public static final String HEADER = "symbol,exchange,name,price,volatility";
    static final String CLASSPATH_DEFAULT = "/symbols.csv";
    private static final int FIELDS = 5;

    private final String source;
    private final Map<String, Listing> bySymbol;

    private SymbolUniverse(String source, Map<String, Listing> bySymbol) {
        this.source = source;
        this.bySymbol = Collections.unmodifiableMap(bySymbol);
    }

    public static SymbolUniverse loadDefault() {
        try (InputStream in = SymbolUniverse.class.getResourceAsStream(CLASSPATH_DEFAULT)) {
            if (in == null) {
                throw new InvalidRegionsException("symbols.csv is missing from the classpath");
            }
            return load(in, "classpath:symbols.csv");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the packaged symbols.csv", e);
        }
    }

    public static SymbolUniverse load(Path file) {
        if (!Files.isReadable(file)) {
            throw new InvalidRegionsException("symbols file " + file + " does not exist or is not readable");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return load(in, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read symbols file " + file, e);
        }
    }

    /**
     * Reads CSV from {@code in} (UTF-8), which the caller closes.
     *
     * @param source what to call the input in error messages, e.g. a file name
     */
    public static SymbolUniverse load(InputStream in, String source) {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        Map<String, Listing> bySymbol = new LinkedHashMap<>();
        Map<String, Integer> lineOf = new HashMap<>();
        boolean headerSeen = false;
        int lineNumber = 0;
        try {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                try {
                    if (!headerSeen) {
                        if (!line.equals(HEADER)) {
                            throw new InvalidRegionsException("the header must be '" + HEADER + "', was '" + line + "'");
                        }
                        headerSeen = true;
                        continue;
                    }
                    Listing listing = listing(fields(line));
                    Integer first = lineOf.putIfAbsent(listing.symbol(), lineNumber);
                    if (first != null) {
                        throw new InvalidRegionsException("duplicate symbol " + listing.symbol() + ", first on line " + first);
                    }
                    bySymbol.put(listing.symbol(), listing);
                } catch (InvalidRegionsException e) {
                    throw new InvalidRegionsException(source + " line " + lineNumber + ": " + e.getMessage(), e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source, e);
        }
        if (bySymbol.isEmpty()) {
            throw new InvalidRegionsException(source + (headerSeen ? " lists no symbols" : " has no header line '" + HEADER + "'"));
        }
        return new SymbolUniverse(source, bySymbol);
    }

    public Optional<Listing> find(String symbol) {
        return Optional.ofNullable(bySymbol.get(symbol));
    }

    public Listing get(String symbol) {
        return find(symbol).orElseThrow(() -> new UnknownSymbolException(symbol));
    }

    /** All listings, in file order. */
    public List<Listing> listings() {
        return List.copyOf(bySymbol.values());
    }

    public List<Listing> onExchanges(Collection<String> exchanges) {
        return bySymbol.values().stream().filter(l -> exchanges.contains(l.exchange())).toList();
    }

    /** The listings whose exchange has its home in this region: the symbols its broker matches. */
    public List<Listing> homedIn(Region region) {
        return onExchanges(region.exchanges());
    }

    /** The exchanges of the listings, in order of first appearance. */
    public Set<String> exchanges() {
        Set<String> exchanges = new LinkedHashSet<>();
        bySymbol.values().forEach(l -> exchanges.add(l.exchange()));
        return Collections.unmodifiableSet(exchanges);
    }

    public int size() {
        return bySymbol.size();
    }

    /** Refuses a universe with symbols no broker would match: every exchange needs a home region. */
    public void requireHomes(RegionsModel model) {
        List<String> homeless = exchanges().stream().filter(e -> model.homeOf(e).isEmpty()).toList();
        if (!homeless.isEmpty()) {
            throw new InvalidRegionsException(source + " lists exchanges with no home region: " + homeless
                    + "; the regions are home of " + model.regions().stream().flatMap(r -> r.exchanges().stream()).toList());
        }
    }

    private static Listing listing(List<String> fields) {
        if (fields.size() != FIELDS) {
            throw new InvalidRegionsException("expected " + FIELDS + " fields (" + HEADER + "), found " + fields.size());
        }
        return new Listing(fields.get(0), fields.get(1), fields.get(2),
                decimal(fields.get(3), "price"), decimal(fields.get(4), "volatility").doubleValue());
    }

    // BigDecimal rather than Double.parseDouble, which would also take "NaN", "Infinity" and "0.3d"
    private static BigDecimal decimal(String field, String what) {
        try {
            return new BigDecimal(field);
        } catch (NumberFormatException e) {
            throw new InvalidRegionsException(what + " is not a decimal number: '" + field + "'");
        }
    }

    /** Splits one CSV line into its fields, unquoting quoted ones. */
    static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        int i = 0;
        while (true) {
            if (i < line.length() && line.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i >= line.length()) {
                        throw new InvalidRegionsException("unterminated quoted field " + (fields.size() + 1));
                    }
                    char c = line.charAt(i++);
                    if (c != '"') {
                        field.append(c);
                    } else if (i < line.length() && line.charAt(i) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        break;
                    }
                }
                if (i < line.length() && line.charAt(i) != ',') {
                    throw new InvalidRegionsException("text after a closing quote in field " + (fields.size() + 1));
                }
            } else {
                for (; i < line.length() && line.charAt(i) != ','; i++) {
                    if (line.charAt(i) == '"') {
                        throw new InvalidRegionsException("a quote inside unquoted field " + (fields.size() + 1)
                                + " (quote the whole field and double the quote)");
                    }
                    field.append(line.charAt(i));
                }
            }
            fields.add(field.toString());
            field.setLength(0);
            if (i >= line.length()) {
                return fields;
            }
            i++;
        }
    }

    /** No listing has this symbol. */
    public static class UnknownSymbolException extends IllegalArgumentException {

        private final String symbol;

        public UnknownSymbolException(String symbol) {
            super("unknown symbol '" + symbol + "'");
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }
}
