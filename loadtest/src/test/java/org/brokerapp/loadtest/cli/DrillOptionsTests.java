package org.brokerapp.loadtest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.brokerapp.loadtest.drill.Drill;
import org.junit.jupiter.api.Test;

class DrillOptionsTests {

    @Test
    void aDrillDefaultsToTheFirstRegionAThirdIntoTheWindowAndItsKindsLength() {
        RunPlan plan = CliOptions.parse("--preset demo --duration 90s --drill region-cut".split(" "));

        assertThat(plan.drill()).contains(new Drill(Drill.Kind.REGION_CUT, "us-east-1", Duration.ofSeconds(30), Duration.ofSeconds(60)));
    }

    @Test
    void everyDrillKnobIsAnOption() {
        RunPlan plan = CliOptions.parse("--preset demo --drill broker-kill --drill-region ap-southeast-2 --drill-at 20s --drill-length 5".split(" "));

        assertThat(plan.drill()).contains(new Drill(Drill.Kind.BROKER_KILL, "ap-southeast-2", Duration.ofSeconds(20), Duration.ofSeconds(5)));
    }

    @Test
    void aCassandraNodeKillNeedsThreeNodesPerDcSoThatQuorumSurvivesIt() {
        RunPlan plan = CliOptions.parse("--preset demo --drill cassandra-kill --nodes-per-dc 3".split(" "));

        assertThat(plan.drill()).map(Drill::kind).contains(Drill.Kind.CASSANDRA_KILL);
        assertThat(((TargetPlan.Local) plan.target()).nodesPerDc()).hasValue(3);
        assertThatThrownBy(() -> CliOptions.parse("--preset demo --drill cassandra-kill".split(" "))).isInstanceOf(UsageException.class)
                .hasMessage("--drill cassandra-kill needs 3 Cassandra nodes per DC (--nodes-per-dc 3): with 2 (RF 2) one node down fails every LOCAL_QUORUM write");
        assertThatThrownBy(() -> CliOptions.parse("--preset demo --drill disk-full".split(" "))).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("--drill disk-full needs 3 Cassandra nodes per DC");
        assertThat(CliOptions.parse("--preset demo --drill disk-full --nodes-per-dc 3".split(" ")).drill())
                .contains(new Drill(Drill.Kind.DISK_FULL, "us-east-1", Duration.ofSeconds(30), Duration.ofSeconds(30)));
        assertThatThrownBy(() -> CliOptions.parse("--preset demo --drill commitlog-full".split(" "))).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("--drill commitlog-full needs 3 Cassandra nodes per DC");
        assertThat(CliOptions.parse("--preset demo --drill commitlog-full --nodes-per-dc 3".split(" ")).drill())
                .contains(new Drill(Drill.Kind.COMMITLOG_FULL, "us-east-1", Duration.ofSeconds(30), Duration.ofSeconds(30)));
        assertThatThrownBy(() -> CliOptions.parse("--nodes-per-dc 4".split(" "))).isInstanceOf(UsageException.class)
                .hasMessageContaining("--nodes-per-dc");
    }

    @Test
    void noDrillUnlessAsked() {
        assertThat(CliOptions.parse("--preset demo".split(" ")).drill()).isEmpty();
    }

    @Test
    void aWrongDrillIsAOneLineUsageError() {
        assertThatThrownBy(() -> CliOptions.parse("--drill meteor".split(" "))).isInstanceOf(UsageException.class)
                .hasMessage("--drill must be one of broker-kill, kafka-kill, cassandra-kill, disk-full, commitlog-full, region-cut, clock-skew, was 'meteor'");
        assertThatThrownBy(() -> CliOptions.parse("--drill region-cut --drill-region mars".split(" "))).isInstanceOf(UsageException.class)
                .hasMessageContaining("unknown region 'mars'");
        assertThatThrownBy(() -> CliOptions.parse("--preset demo --duration 30s --drill broker-kill --drill-at 40s".split(" ")))
                .isInstanceOf(UsageException.class).hasMessageContaining("within the measured window");
        assertThatThrownBy(() -> CliOptions.parse("--drill-at 10s".split(" "))).isInstanceOf(UsageException.class)
                .hasMessage("--drill-at needs --drill");
        assertThatThrownBy(() -> CliOptions.parse("--drill broker-kill --broker us-east-1=http://x --broker ap-southeast-2=http://y --kafka us-east-1=a:1 --kafka ap-southeast-2=b:1".split(" ")))
                .isInstanceOf(UsageException.class).hasMessageContaining("local stack");
    }
}
