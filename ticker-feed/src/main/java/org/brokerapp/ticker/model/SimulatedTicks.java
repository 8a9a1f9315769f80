package org.brokerapp.ticker.model;

import java.util.Iterator;
import java.util.NoSuchElementException;

import org.brokerapp.ticker.pacing.RateSchedule;
import org.brokerapp.ticker.pacing.RunLength;
import org.brokerapp.ticker.pacing.ScheduledTick;

/** A simulated run: the market's ticks at the schedule's times, until the run length is reached. */
public final class SimulatedTicks implements Iterator<ScheduledTick> {

    private final SimulatedMarket market;
    private final RateSchedule schedule;
    private final RunLength length;
    private long index;

    public SimulatedTicks(SimulatedMarket market, RateSchedule schedule, RunLength length) {
        this.market = market;
        this.schedule = schedule;
        this.length = length;
    }

    @Override
    public boolean hasNext() {
        return !length.isOver(index, schedule.intendedNanos(index));
    }

    @Override
    public ScheduledTick next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        long due = schedule.intendedNanos(index++);
        return new ScheduledTick(due, market.tickAt(due));
    }
}
