package org.brokerapp.loadtest.sla;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.brokerapp.loadtest.report.SlaResult;
import org.junit.jupiter.api.Test;

class SlaStepsTests {

    private static SlaSteps.Observation seen(double orders, double p99) {
        return new SlaSteps.Observation(orders, orders * 2, orders, orders * 0.6, 1000, p99, 0, (long) orders * 60);
    }

    @Test
    void stepsUpUntilTheFirstFailureAndAnswersTheStepBefore() {
        SlaSteps steps = new SlaSteps(SlaPlan.of(10, 50, 25, 0, 10));

        assertThat(steps.nextOrdersPerSecond()).isEqualTo(50);
        assertThat(steps.record(seen(50, 4)).passed()).isTrue();
        assertThat(steps.nextOrdersPerSecond()).isEqualTo(75);
        assertThat(steps.record(seen(75, 8)).passed()).isTrue();
        assertThat(steps.nextOrdersPerSecond()).isEqualTo(100);
        SlaResult.Step failed = steps.record(seen(100, 12));

        assertThat(failed.passed()).isFalse();
        assertThat(failed.reason()).contains("12.0 ms >= SLA 10.0 ms");
        assertThat(steps.done()).isTrue();
        assertThat(steps.answer()).hasValueSatisfying(s -> assertThat(s.ordersPerSecond()).isEqualTo(75));
        SlaResult result = steps.result();
        assertThat(result.steps()).hasSize(3);
        assertThat(result.answerOrdersPerSecond()).isEqualTo(75);
        assertThat(result.verdict()).contains("75 orders/s");
        assertThatThrownBy(steps::nextOrdersPerSecond).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aFactorMultipliesEachStep() {
        SlaPlan plan = SlaPlan.of(10, 20, 0, 2, 5);

        assertThat(plan.ordersAt(0)).isEqualTo(20);
        assertThat(plan.ordersAt(3)).isEqualTo(160);
    }

    @Test
    void aStepNotSustainedOrWithErrorsOrWithoutFillsFails() {
        SlaSteps unsustained = new SlaSteps(SlaPlan.of(10, 100, 100, 0, 5));
        assertThat(unsustained.record(new SlaSteps.Observation(100, 200, 80, 50, 500, 3, 0, 4800)).reason()).startsWith("not sustained");

        SlaSteps failing = new SlaSteps(SlaPlan.of(10, 100, 100, 0, 5));
        assertThat(failing.record(new SlaSteps.Observation(100, 200, 100, 50, 500, 3, 120, 6000)).reason()).isEqualTo("2.0% of orders failed");

        SlaSteps idle = new SlaSteps(SlaPlan.of(10, 100, 100, 0, 5));
        assertThat(idle.record(new SlaSteps.Observation(100, 200, 100, 0, 0, -1, 0, 6000)).reason()).isEqualTo("no fills measured");
        assertThat(idle.result().answerOrdersPerSecond()).isNull();
        assertThat(idle.result().verdict()).startsWith("no step met the SLA");
    }

    @Test
    void aTickToFillBeyondTheLastBucketFails() {
        SlaSteps steps = new SlaSteps(SlaPlan.of(10, 100, 100, 0, 5));

        assertThat(steps.record(seen(100, -1)).reason()).contains("beyond the largest bucket");
    }

    @Test
    void whenEveryPlannedStepPassesTheAnswerIsALowerBound() {
        SlaSteps steps = new SlaSteps(SlaPlan.of(10, 10, 10, 0, 2));
        steps.record(seen(10, 1));
        steps.record(seen(20, 1));

        assertThat(steps.done()).isTrue();
        assertThat(steps.result().verdict()).contains("the limit is higher");
    }

    @Test
    void aPlanRefusesNonsense() {
        assertThatThrownBy(() -> SlaPlan.of(0, 10, 10, 0, 3)).hasMessageContaining("SLA must be > 0");
        assertThatThrownBy(() -> SlaPlan.of(10, 10, 0, 0, 3)).hasMessageContaining("step must be > 0");
        assertThatThrownBy(() -> SlaPlan.of(10, 10, 10, 0, 0)).hasMessageContaining("at least one step");
    }
}
