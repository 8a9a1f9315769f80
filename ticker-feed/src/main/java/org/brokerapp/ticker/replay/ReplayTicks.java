package org.brokerapp.ticker.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

import org.brokerapp.regions.Region;
import org.brokerapp.ticker.Tick;
import org.brokerapp.ticker.pacing.ScheduledTick;

/**
 * A replay for one region: the file's trades on the region's exchanges, each due at its time since
 * the file's first trade (over all regions, so regions replayed together stay in step) divided by
 * the speed. Sequence numbers count per symbol from 1, in file order.
 */
public final class ReplayTicks implements Iterator<ScheduledTick>, AutoCloseable {

    private final ReplayRows rows;
    private final Region region;
    private final Instant firstTrade;
    private final Speed speed;
    private final EventTime eventTime;
    private final Instant start;
    private final Map<String, long[]> sequences = new HashMap<>();
    private ReplayRow next;

    ReplayTicks(ReplayRows rows, Region region, Instant firstTrade, Speed speed, EventTime eventTime, Instant start) {
        this.rows = rows;
        this.region = region;
        this.firstTrade = firstTrade;
        this.speed = speed;
        this.eventTime = eventTime;
        this.start = start;
    }

    @Override
    public boolean hasNext() {
        while (next == null && rows.hasNext()) {
            ReplayRow row = rows.next();
            if (region.isHomeOf(row.exchange())) {
                next = row;
            }
        }
        return next != null;
    }

    @Override
    public ScheduledTick next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        ReplayRow row = next;
        next = null;
        long due = speed.offsetNanos(Duration.between(firstTrade, row.time()));
        long sequence = ++sequences.computeIfAbsent(row.symbol(), s -> new long[1])[0];
        Instant time = eventTime == EventTime.ORIGINAL ? row.time() : start.plusNanos(due);
        return new ScheduledTick(due, new Tick(row.symbol(), row.exchange(), row.price(), row.size(), sequence, time));
    }

    @Override
    public void close() {
        rows.close();
    }
}
