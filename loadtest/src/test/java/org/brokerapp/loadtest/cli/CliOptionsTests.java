package org.brokerapp.loadtest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.brokerapp.loadtest.workload.OrderMix;
import org.junit.jupiter.api.Test;

class CliOptionsTests {

    @Test
    void aPresetGivesItsLoadAndTheLocalStackOfInstanceFive() {
        RunPlan plan = CliOptions.parse(new String[] {"--preset", "prototype"});

        assertThat(plan.spec().ordersPerSecond()).isEqualTo(300);
        assertThat(plan.spec().ticksPerSecond()).isEqualTo(600);
        assertThat(plan.spec().expectedTradesPerSecond()).isBetween(190.0, 230.0);
        assertThat(plan.spec().symbolsPerRegion()).containsEntry("us-east-1", 60).containsEntry("ap-southeast-2", 0);
        assertThat(plan.target()).isInstanceOfSatisfying(TargetPlan.Local.class, l -> assertThat(l.instance()).isEqualTo(5));
        assertThat(plan.sla()).isEmpty();
        assertThat(plan.check()).isTrue();
    }

    @Test
    void everyKnobOverridesThePreset() {
        RunPlan plan = CliOptions.parse(("--preset smoke --orders 40 --ticks 90 --mix LIMIT=3,STOP=1 --buy-share 0.7 --marketable 0.25 "
                + "--cross-region 0.4 --symbols us-east-1=7,ap-southeast-2=3 --customers 9 --ramp-up 1 --warm-up 2s --duration 1m "
                + "--drain 0 --floor-rate 12 --instance 4 --seed 42").split(" "));

        assertThat(plan.spec().ordersPerSecond()).isEqualTo(40);
        assertThat(plan.spec().ticksPerSecond()).isEqualTo(90);
        assertThat(plan.spec().mix()).isEqualTo(new OrderMix(0.75, 0.25, 0));
        assertThat(plan.spec().buyShare()).isEqualTo(0.7);
        assertThat(plan.spec().marketableShare()).isEqualTo(0.25);
        assertThat(plan.spec().crossRegionShare()).isEqualTo(0.4);
        assertThat(plan.spec().symbolsPerRegion()).containsEntry("us-east-1", 7).containsEntry("ap-southeast-2", 3);
        assertThat(plan.spec().customers()).isEqualTo(9);
        assertThat(plan.spec().rampUp()).isEqualTo(Duration.ofSeconds(1));
        assertThat(plan.spec().warmUp()).isEqualTo(Duration.ofSeconds(2));
        assertThat(plan.spec().duration()).isEqualTo(Duration.ofMinutes(1));
        assertThat(plan.spec().drain()).isZero();
        assertThat(plan.spec().floorWritesPerSecond()).isEqualTo(12);
        assertThat(plan.spec().seed()).isEqualTo(42);
        assertThat(plan.target()).isInstanceOfSatisfying(TargetPlan.Local.class, l -> assertThat(l.instance()).isEqualTo(4));
    }

    @Test
    void tlsIsForTheLocalStackTheHarnessStarts() {
        assertThat(((TargetPlan.Local) CliOptions.parse("--preset demo --tls".split(" ")).target()).tls()).isTrue();
        assertThat(((TargetPlan.Local) CliOptions.parse("--preset demo".split(" ")).target()).tls()).isFalse();
        assertThatThrownBy(() -> CliOptions.parse("--tls --broker us-east-1=https://a --broker ap-southeast-2=https://b --kafka us-east-1=a:1 --kafka ap-southeast-2=b:1"
                .split(" "))).isInstanceOf(UsageException.class).hasMessage("--tls is for the local stack; with --broker/--kafka the deployment exists already");
    }

    @Test
    void brokerInstancesPerRegionAreForTheLocalStackFromOneToFour() {
        assertThat(((TargetPlan.Local) CliOptions.parse("--preset demo".split(" ")).target()).brokersPerRegion()).isEqualTo(1);
        assertThat(((TargetPlan.Local) CliOptions.parse("--preset demo --brokers-per-region 2".split(" ")).target()).brokersPerRegion()).isEqualTo(2);
        assertBad("--brokers-per-region 5", "--brokers-per-region must be");
        assertBad("--brokers-per-region 0", "--brokers-per-region must be");
        assertBad("--broker us-east-1=http://a:8080 --brokers-per-region 2", "--brokers-per-region is for the local stack");
    }

    @Test
    void theMarketShortcutKeepsTheOtherTypesInProportion() {
        RunPlan plan = CliOptions.parse(new String[] {"--preset", "smoke", "--market", "0"});

        assertThat(plan.spec().mix().market()).isZero();
        // smoke is LIMIT 50, STOP 20, STOP_LIMIT 10: without MARKET 62.5 %, 25 % and 12.5 %
        assertThat(plan.spec().mix().limit()).isEqualTo(0.625, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(plan.spec().mix().stopLimit()).isEqualTo(0.125, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void theFloorFollowsTheOrderRateUnlessSet() {
        RunPlan plan = CliOptions.parse(new String[] {"--preset", "prototype", "--orders", "150"});

        assertThat(plan.spec().floorWritesPerSecond()).isEqualTo(100);
    }

    @Test
    void endpointsMakeAnExistingDeploymentTarget() {
        RunPlan plan = CliOptions.parse(new String[] {"--broker", "us-east-1=http://10.0.0.1:8080", "--broker", "ap-southeast-2=http://10.1.0.1:8080",
                "--kafka", "us-east-1=10.0.0.2:9092,ap-southeast-2=10.1.0.2:9092", "--cql", "us-east-1=127.0.0.1:9042+127.0.0.2/us-east-1"});

        assertThat(plan.target()).isInstanceOfSatisfying(TargetPlan.Endpoints.class, e -> {
            assertThat(e.brokers()).containsEntry("ap-southeast-2", "http://10.1.0.1:8080");
            assertThat(e.kafka()).containsEntry("us-east-1", "10.0.0.2:9092");
            assertThat(e.cql().get("us-east-1").contactPoints()).hasSize(2);
            assertThat(e.cql().get("us-east-1").localDatacenter()).isEqualTo("us-east-1");
        });
    }

    @Test
    void anOptionsValueMayFollowAnEqualsSign() {
        RunPlan spaced = CliOptions.parse(new String[] {"--preset", "smoke", "--orders", "40", "--warmup", "5s", "--broker-arg", "--broker.x=1"});
        RunPlan joined = CliOptions.parse(new String[] {"--preset=smoke", "--orders=40", "--warm-up=5s", "--broker-arg=--broker.x=1"});

        assertThat(joined.spec()).isEqualTo(spaced.spec());
        assertThat(joined.spec().ordersPerSecond()).isEqualTo(40);
        assertThat(joined.target()).isEqualTo(spaced.target());
    }

    @Test
    void theSlaSearchStartsAtTheOrderRateByDefault() {
        RunPlan plan = CliOptions.parse(new String[] {"--preset", "small", "--sla-search", "--sla-ms", "25", "--sla-factor", "1.5"});

        assertThat(plan.sla()).hasValueSatisfying(s -> {
            assertThat(s.slaMillis()).isEqualTo(25);
            assertThat(s.startOrders()).isEqualTo(40);
            assertThat(s.ordersAt(2)).isEqualTo(90);
        });
    }

    @Test
    void badCommandLinesAreOneLineErrorsNamingTheOption() {
        assertBad("--orders fast", "--orders must be a number >= 0, was 'fast'");
        assertBad("--speed 3", "Unknown options: '--speed'");
        assertBad("--orders", "Missing required parameter for option '--orders'");
        assertBad("--orders 3 --orders 4", "option '--orders' (VALUE) should be specified only once");
        assertBad("--preset huge", "unknown preset 'huge'");
        assertBad("--buy-share 1.5", "--buy-share must be a share between 0 and 1");
        assertBad("--mix LIMIT=1,FOK=2", "--mix: unknown order type 'FOK'");
        assertBad("--mix LIMIT", "--mix wants TYPE=weight");
        assertBad("--mix LIMIT=0", "order mix must give some type a weight > 0");
        assertBad("--symbols mars=3", "--symbols: unknown region 'mars'");
        assertBad("--symbols us-east-1=0,ap-southeast-2=0", "at least one region needs symbols");
        assertBad("--duration 0", "duration must be > 0 s");
        assertBad("--warm-up soon", "--warm-up must be seconds");
        assertBad("--customers 0", "--customers must be a whole number from 1");
        assertBad("--ticks 0", "tick rate must be > 0");
        assertBad("--sla-ms 5", "--sla-ms needs --sla-search");
        assertBad("--sla-search --sla-factor 0.5", "SLA search factor must be > 1");
        assertBad("--broker us-east-1=http://a:8080", "--broker ap-southeast-2=URL missing");
        assertBad("--broker us-east-1=http://a:8080,ap-southeast-2=http://b:8080", "--kafka us-east-1=HOST:PORT missing");
        assertBad("--broker us-east-1=http://a:8080 --instance 4", "--instance is for the local stack");
        assertBad("--cql us-east-1=10.0.0.1:9042", "--cql wants REGION=HOST:PORT[+HOST:PORT]/DC");
        assertBad("stray", "Unmatched argument at index 0: 'stray'");
    }

    @Test
    void helpIsRecognisedAndListsEveryPreset() {
        assertThat(CliOptions.wantsHelp(new String[] {"--preset", "smoke", "--help"})).isTrue();
        assertThat(CliUsage.TEXT).contains("smoke", "prototype", "small", "medium", "--cross-region", "--sla-search");
    }

    @Test
    void aBadCommandLineExitsWithTwo() {
        assertThat(LoadTestCli.run(new String[] {"--orders", "-3"})).isEqualTo(2);
        assertThat(LoadTestCli.run(new String[] {"--version"})).as("--version answers before any option is read").isZero();
    }

    private static void assertBad(String args, String message) {
        assertThatThrownBy(() -> CliOptions.parse(args.split(" "))).isInstanceOf(UsageException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
