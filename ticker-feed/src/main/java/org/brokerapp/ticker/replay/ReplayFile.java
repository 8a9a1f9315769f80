package org.brokerapp.ticker.replay;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.brokerapp.regions.Region;
import org.brokerapp.regions.RegionsModel;
import org.brokerapp.regions.SymbolUniverse;

/**
 * A CSV file of historical trades to replay, checked from its first line to its last before a
 * single tick is sent, so a bad row never leaves half a replay in Kafka.
 *
 * <p>Format (UTF-8; blank lines and lines starting with {@code #} are skipped):
 * <pre>
 * time,symbol,exchange,price,size
 * 2025-11-21T14:30:00.000125Z,AAPL,NASDAQ,230.01,100
 * </pre>
 * {@code time}: ISO-8601 UTC instant, at most microseconds, rows in time order (equal times allowed);
 * {@code symbol}: a symbol of the universe, {@code exchange}: the exchange it is listed on;
 * {@code price}: a decimal &gt; 0 such as {@code 187.44} (no sign, exponent or quotes);
 * {@code size}: shares, a whole number &gt; 0.
 */
public final class ReplayFile {

    public static final String HEADER = "time,symbol,exchange,price,size";

    private final Path path;
    private final SymbolUniverse universe;
    private final Map<String, Long> rowsByRegion;
    private final Map<String, Set<String>> symbolsByRegion;
    private final long rows;
    private final Instant firstTime;
    private final Instant lastTime;

    private ReplayFile(Path path, SymbolUniverse universe, Map<String, Long> rowsByRegion, Map<String, Set<String>> symbolsByRegion,
                       long rows, Instant firstTime, Instant lastTime) {
        this.path = path;
        this.universe = universe;
        this.rowsByRegion = Collections.unmodifiableMap(rowsByRegion);
        this.symbolsByRegion = Collections.unmodifiableMap(symbolsByRegion);
        this.rows = rows;
        this.firstTime = firstTime;
        this.lastTime = lastTime;
    }

    /** Reads the whole file once; throws {@link ReplayFileException} at its first bad line. */
    public static ReplayFile check(Path path, SymbolUniverse universe, RegionsModel regions) {
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new ReplayFileException("cannot read replay file " + path + ": it does not exist or is not a readable file");
        }
        Map<String, Long> rowsByRegion = new LinkedHashMap<>();
        Map<String, Set<String>> symbolsByRegion = new LinkedHashMap<>();
        long rows = 0;
        Instant first = null;
        Instant last = null;
        try (ReplayRows reader = new ReplayRows(path, universe)) {
            while (reader.hasNext()) {
                ReplayRow row = reader.next();
                Region home = regions.homeOf(row.exchange()).orElseThrow(() -> new ReplayFileException(
                        path + " line " + row.line() + ": exchange " + row.exchange() + " has no home region in the regions model"));
                rowsByRegion.merge(home.name(), 1L, Long::sum);
                symbolsByRegion.computeIfAbsent(home.name(), r -> new TreeSet<>()).add(row.symbol());
                rows++;
                first = first == null ? row.time() : first;
                last = row.time();
            }
        }
        if (rows == 0) {
            throw new ReplayFileException(path + " has no trades");
        }
        return new ReplayFile(path, universe, rowsByRegion, symbolsByRegion, rows, first, last);
    }

    /** The trades of the region's exchanges, in file order, paced at {@code speed}; close it when done. */
    public ReplayTicks ticksFor(Region region, Speed speed, EventTime eventTime, Instant start) {
        return new ReplayTicks(new ReplayRows(path, universe), region, firstTime, speed, eventTime, start);
    }

    public Path path() {
        return path;
    }

    public long rows() {
        return rows;
    }

    public long rowsOf(String region) {
        return rowsByRegion.getOrDefault(region, 0L);
    }

    /** The symbols the file trades on the region's exchanges. */
    public Set<String> symbolsOf(String region) {
        return symbolsByRegion.getOrDefault(region, Set.of());
    }

    public Instant firstTime() {
        return firstTime;
    }

    public Instant lastTime() {
        return lastTime;
    }
}
