package org.brokerapp.loadtest.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.brokerapp.loadtest.run.Settling.Verdict;
import org.junit.jupiter.api.Test;

class SettlingTests {

    private final Settling rule = Settling.after(Duration.ofSeconds(60), 2);

    @Test
    void aRateStillFallingIsNotSettled() {
        // the demo's baseline after the brokers' start: 199 % of one core, then down towards 77 %
        assertThat(rule.judge(List.of(1.99, 1.50), Duration.ofSeconds(60))).isEqualTo(Verdict.SETTLING);
        assertThat(rule.judge(List.of(1.99, 1.50, 1.00, 0.80), Duration.ofSeconds(120))).isEqualTo(Verdict.SETTLING);
    }

    @Test
    void aRateThatStoppedFallingIsSettled() {
        assertThat(rule.judge(List.of(1.99, 1.50, 1.00, 0.80, 0.77), Duration.ofSeconds(150))).isEqualTo(Verdict.SETTLED);
        assertThat(rule.judge(List.of(0.80, 0.85), Duration.ofSeconds(60))).isEqualTo(Verdict.SETTLED);
    }

    @Test
    void aSmallFallAtRestIsNoise() {
        // at rest a few tenths of a core: a fall of 2 % of one core is under the 3 % of slack, one of 6 % is not
        assertThat(rule.judge(List.of(0.28, 0.26), Duration.ofSeconds(60))).isEqualTo(Verdict.SETTLED);
        assertThat(rule.judge(List.of(0.28, 0.22), Duration.ofSeconds(60))).isEqualTo(Verdict.SETTLING);
    }

    @Test
    void aFlatRateOnASaturatedMachineIsNotSettled() {
        // the prototype preset's first baseline: 198.4 % then 197.8 % of two cores, the brokers' start still queued behind the floor
        assertThat(rule.judge(List.of(1.984, 1.978), Duration.ofSeconds(60))).isEqualTo(Verdict.SETTLING);
        assertThat(rule.judge(List.of(1.984, 1.978, 1.40, 1.38), Duration.ofSeconds(120))).isEqualTo(Verdict.SETTLED);
        assertThat(rule.judge(List.of(1.984, 1.978), Duration.ofMinutes(10))).isEqualTo(Verdict.GAVE_UP);
    }

    @Test
    void neverSettledBeforeItsMinimumNorOnOneReading() {
        assertThat(rule.judge(List.of(0.30, 0.30), Duration.ofSeconds(59))).isEqualTo(Verdict.SETTLING);
        assertThat(rule.judge(List.of(0.30), Duration.ofSeconds(90))).isEqualTo(Verdict.SETTLING);
    }

    @Test
    void givesUpAtItsMaximum() {
        assertThat(rule.judge(List.of(1.0, 0.5), Duration.ofMinutes(10))).isEqualTo(Verdict.GAVE_UP);
        assertThat(rule.judge(List.of(1.0, 1.0), Duration.ofMinutes(10))).isEqualTo(Verdict.SETTLED);
    }

    @Test
    void refusesARuleThatCannotEnd() {
        assertThatThrownBy(() -> new Settling(Duration.ZERO, Duration.ZERO, Duration.ofMinutes(1), 0.1, 0.03, 1.8))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Settling(Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofMinutes(1), 0.1, 0.03, 1.8))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
