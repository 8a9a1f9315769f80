package org.brokerapp.ticker.pacing;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.LongStream;

import org.brokerapp.ticker.Tick;
import org.junit.jupiter.api.Test;

class PacerTests {

    private static final long START = 1_000_000_000L;
    private static final long MS = 1_000_000;
    private static final RateSchedule THOUSAND_PER_SECOND = new RateSchedule(1_000, Burst.NONE);

    @Test
    void aFastSenderSendsEachTickAtItsIntendedTimeWithoutLag() {
        FakeClock clock = new FakeClock(START);
        List<Long> sentAt = new ArrayList<>();
        PacingStats stats = new PacingStats();

        new Pacer(clock, () -> false).run(ticks(THOUSAND_PER_SECOND, 100), tick -> sentAt.add(clock.nanoTime() - START), stats);

        assertThat(sentAt).containsExactlyElementsOf(LongStream.range(0, 100).map(i -> i * MS).boxed().toList());
        assertThat(stats.sent()).isEqualTo(100);
        assertThat(stats.totalLag().getMaxValue()).isZero();
    }

    @Test
    void aSlowSenderDoesNotSlowTheScheduleDownItFallsBehindAndReportsLag() {
        FakeClock clock = new FakeClock(START);
        List<Long> sentAt = new ArrayList<>();
        PacingStats stats = new PacingStats();

        // every send takes 3 ms, three times the 1 ms between ticks: Kafka is slow
        new Pacer(clock, () -> false).run(ticks(THOUSAND_PER_SECOND, 100), tick -> {
            sentAt.add(clock.nanoTime() - START);
            clock.advance(3 * MS);
        }, stats);

        // closed loop would send tick i at 3i ms *and* schedule tick i+1 1 ms after that; open loop keeps
        // the schedule (tick i due at i ms), never waits once behind, and the lag of tick i is 3i - i = 2i ms
        assertThat(clock.sleeps).isEmpty();
        assertThat(sentAt).containsExactlyElementsOf(LongStream.range(0, 100).map(i -> 3 * i * MS).boxed().toList());
        assertThat(stats.lastIntendedNanos()).isEqualTo(99 * MS);
        assertThat(stats.lastLagNanos()).isEqualTo(2 * 99 * MS);
        assertThat(stats.totalLag().getMaxValue()).isBetween(197 * MS, 199 * MS);
    }

    @Test
    void afterAStallTheSenderCatchesUpByRushingTheOverdueTicksThenKeepsPace() {
        FakeClock clock = new FakeClock(START);
        List<Long> sentAt = new ArrayList<>();

        new Pacer(clock, () -> false).run(ticks(THOUSAND_PER_SECOND, 20), tick -> {
            sentAt.add(clock.nanoTime() - START);
            if (sentAt.size() == 5) {
                clock.advance(10 * MS); // a 10 ms stall (GC, buffer full) during the fifth send
            }
        }, new PacingStats());

        // ticks 5-13 were due during the stall and go out at 14 ms at once; from tick 14 on the pace is the schedule's
        assertThat(sentAt.subList(0, 5)).containsExactly(0L, MS, 2 * MS, 3 * MS, 4 * MS);
        assertThat(sentAt.subList(5, 14)).containsOnly(14 * MS);
        assertThat(sentAt.subList(14, 20)).containsExactly(14 * MS, 15 * MS, 16 * MS, 17 * MS, 18 * MS, 19 * MS);
    }

    @Test
    void aStopRequestEndsTheRunEvenWhileWaitingForASparseTick() {
        FakeClock clock = new FakeClock(START);
        List<Tick> sent = new ArrayList<>();
        RateSchedule oncePerMinute = new RateSchedule(1 / 60.0, Burst.NONE);
        PacingStats stats = new PacingStats();

        new Pacer(clock, () -> clock.nanoTime() - START > 5_000 * MS).run(ticks(oncePerMinute, 10), sent::add, stats);

        assertThat(sent).hasSize(1);
        assertThat(clock.sleeps).allSatisfy(nanos -> assertThat(nanos).isLessThanOrEqualTo(Pacer.MAX_SLEEP_NANOS));
        assertThat(stats.isRunning()).isFalse();
    }

    private static Iterator<ScheduledTick> ticks(RateSchedule schedule, int count) {
        List<ScheduledTick> ticks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ticks.add(new ScheduledTick(schedule.intendedNanos(i),
                    new Tick("AAPL", "NASDAQ", new BigDecimal("187.44"), 100, i + 1, Instant.EPOCH)));
        }
        return ticks.iterator();
    }
}
