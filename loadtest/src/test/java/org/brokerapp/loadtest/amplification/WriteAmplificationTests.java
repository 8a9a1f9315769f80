package org.brokerapp.loadtest.amplification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.brokerapp.loadtest.amplification.PeerDirectoryTests.node;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.brokerapp.infra.cli.CliConventions;
import org.brokerapp.regions.Region;
import org.brokerapp.regions.RegionsModel;
import org.junit.jupiter.api.Test;

class WriteAmplificationTests {

    // RF 2 in North Virginia, 1 in Sydney
    static final RegionsModel REGIONS = new RegionsModel(List.of(
            new Region("us-east-1", "North Virginia", "us-east-1", List.of("NYSE"), 2),
            new Region("ap-southeast-2", "Sydney", "ap-southeast-2", List.of("ASX"), 1)), null);
    static final NodeRef EAST_1 = node("us-east-1", 1, 1);
    static final NodeRef EAST_2 = node("us-east-1", 1, 2);
    static final NodeRef SYDNEY_1 = node("ap-southeast-2", 2, 1);
    static final Instant T0 = Instant.parse("2026-11-22T08:00:00Z");

    @Test
    void aDeltaIsAfterMinusBeforeAndATableBornInBetweenStartsFromZeroButAPeerDoesNot() {
        NodeSnapshot before = snapshot(EAST_1, 10, 1, Map.of("a", 5L), Map.of("a", 7L), 3, Map.of("127.7.2.11_7000", new PeerTraffic(4, 400)), 1_000);
        NodeSnapshot after = snapshot(EAST_1, 15, 3, Map.of("a", 9L, "b", 2L), Map.of("a", 8L, "b", 6L), 9,
                Map.of("127.7.2.11_7000", new PeerTraffic(10, 1000), "127.6.1.12_7000", new PeerTraffic(1, 50)), 3_500);

        NodeSnapshot delta = after.minus(before);

        assertThat(delta.clientWrites()).isEqualTo(5);
        assertThat(delta.clientCasWrites()).isEqualTo(2);
        assertThat(delta.coordinatorWrites()).containsExactlyInAnyOrderEntriesOf(Map.of("a", 4L, "b", 2L));
        assertThat(delta.replicaWrites()).containsExactlyInAnyOrderEntriesOf(Map.of("a", 1L, "b", 6L));
        assertThat(delta.replicaWritesTotal()).isEqualTo(7);
        assertThat(delta.paxosWrites()).isEqualTo(6);
        assertThat(delta.outbound()).containsOnly(Map.entry("127.7.2.11_7000", new PeerTraffic(6, 600)));
        // a peer's counters appearing in between may have replaced others that vanished: unknown, not zero-based
        assertThat(delta.unmeteredPeers()).containsExactly("127.6.1.12_7000");
        assertThat(delta.cpuNanos()).isEqualTo(2_500);
    }

    @Test
    void aPeerWhoseCountersVanishedOrWentBackwardsIsUnmetered() {
        NodeSnapshot before = snapshot(EAST_1, 0, 0, Map.of(), Map.of(), 0,
                Map.of("127.7.2.11_7000", new PeerTraffic(10, 1000), "127.6.1.12_7000", new PeerTraffic(5, 500)), 0);
        NodeSnapshot after = snapshot(EAST_1, 0, 0, Map.of(), Map.of(), 0, Map.of("127.7.2.11_7000", new PeerTraffic(3, 300)), 0);

        NodeSnapshot delta = after.minus(before);

        assertThat(delta.outbound()).isEmpty();
        assertThat(delta.unmeteredPeers()).containsExactlyInAnyOrder("127.7.2.11_7000", "127.6.1.12_7000");
    }

    @Test
    void crossDcTrafficIsNotAvailableWhenALinkBetweenDcsWasUnmetered() {
        Map<String, PeerTraffic> eastOut = Map.of("127.7.2.11_7000", new PeerTraffic(1, 100));
        ClusterSnapshot before = ClusterSnapshot.at("ks", T0, List.of(
                snapshot(EAST_1, 0, 0, Map.of(), Map.of(), 0, eastOut, 0), zero(EAST_2),
                snapshot(SYDNEY_1, 0, 0, Map.of(), Map.of(), 0, Map.of("127.7.1.11_7000", new PeerTraffic(1, 100)), 0)));
        ClusterSnapshot after = ClusterSnapshot.at("ks", T0, List.of(
                snapshot(EAST_1, 0, 0, Map.of(), Map.of(), 0, Map.of("127.7.2.11_7000", new PeerTraffic(9, 900)), 0), zero(EAST_2),
                snapshot(SYDNEY_1, 0, 0, Map.of(), Map.of(), 0, Map.of(), 0)));

        WriteAmplification wa = WriteAmplification.between(before, after, 1, REGIONS);

        // EAST_2 never talked to Sydney, and Sydney's counters towards North Virginia vanished
        assertThat(wa.unmeteredLinks()).containsExactlyInAnyOrder("us-east-1/2 -> ap-southeast-2/1", "ap-southeast-2/1 -> us-east-1/1",
                "ap-southeast-2/1 -> us-east-1/2");
        assertThat(wa.crossDcMetered()).isFalse();
        assertThat(wa.dcs()).noneMatch(DcAmplification::crossDcMetered);
        assertThat(AmplificationTable.perDc(wa)).contains("n/a: Cassandra lost the connection counters of ");
    }

    @Test
    void countersGoingBackwardsMeanARestartAndAreRefused() {
        NodeSnapshot before = snapshot(EAST_1, 10, 0, Map.of("a", 5L), Map.of("a", 5L), 0, Map.of(), 1_000);
        NodeSnapshot restarted = snapshot(EAST_1, 2, 0, Map.of("a", 1L), Map.of("a", 1L), 0, Map.of(), 100);

        assertThatThrownBy(() -> restarted.minus(before)).hasMessageContaining("us-east-1/1").hasMessageContaining("restart");
    }

    @Test
    void snapshotsOfDifferentNodesOrKeyspacesDoNotSubtract() {
        NodeSnapshot a = snapshot(EAST_1, 0, 0, Map.of(), Map.of(), 0, Map.of(), 0);
        NodeSnapshot b = snapshot(EAST_2, 0, 0, Map.of(), Map.of(), 0, Map.of(), 0);

        assertThatThrownBy(() -> a.minus(b)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClusterSnapshot.at("x", T0, List.of(a)).minus(ClusterSnapshot.at("y", T0, List.of(a))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * 100 plain writes coordinated in North Virginia and 10 conditional ones: each lands on both
     * local replicas and on the Sydney replica; the mutation crosses the WAN once, its answer back.
     */
    @Test
    void perDcFiguresComeFromEachDcsNodesAndPeersAreClassifiedByTheirDc() {
        ClusterSnapshot after = ClusterSnapshot.at("ks", T0.plusSeconds(10), List.of(
                snapshot(EAST_1, 100, 10, Map.of("t", 100L), Map.of("t", 110L), 30,
                        Map.of("127.7.2.11_7000", new PeerTraffic(110, 11_000), "127.6.1.12_7000", new PeerTraffic(130, 13_000)), 2_000_000_000L),
                snapshot(EAST_2, 0, 0, Map.of("t", 0L), Map.of("t", 110L), 20, Map.of("127.6.1.11_7000", new PeerTraffic(130, 1_300)), 1_000_000_000L),
                snapshot(SYDNEY_1, 0, 0, Map.of("t", 0L), Map.of("t", 110L), 10,
                        Map.of("127.7.1.11_7000", new PeerTraffic(110, 1_100), "127.9.9.9_7000", new PeerTraffic(5, 5)), 500_000_000L)));
        ClusterSnapshot before = idle(after);

        WriteAmplification wa = WriteAmplification.between(before, after, 50, WriteAmplificationTests.REGIONS);

        DcAmplification east = wa.dcs().get(0);
        DcAmplification sydney = wa.dcs().get(1);
        assertThat(east.datacenter()).isEqualTo("us-east-1");
        assertThat(east.nodes()).isEqualTo(2);
        assertThat(east.clientMutations()).isEqualTo(110);
        assertThat(east.casMutations()).isEqualTo(10);
        assertThat(east.replicaWrites()).isEqualTo(220);
        assertThat(east.paxosWrites()).isEqualTo(50);
        assertThat(east.crossDcOut()).isEqualTo(new PeerTraffic(110, 11_000));
        assertThat(east.crossDcIn()).isEqualTo(new PeerTraffic(110, 1_100));
        assertThat(sydney.clientMutations()).isZero();
        assertThat(sydney.replicaWrites()).isEqualTo(110);
        assertThat(sydney.crossDcOut()).isEqualTo(new PeerTraffic(110, 1_100));
        assertThat(sydney.crossDcIn()).isEqualTo(new PeerTraffic(110, 11_000));
        assertThat(wa.unknownPeers()).containsExactly("127.9.9.9_7000");
        // neither EAST_2 nor Sydney has counters for the link between them
        assertThat(wa.unmeteredLinks()).containsExactly("ap-southeast-2/1 -> us-east-1/2", "us-east-1/2 -> ap-southeast-2/1");
        assertThat(wa.interval()).hasSeconds(10);

        assertThat(wa.theoreticalFactor()).isEqualTo(3);
        assertThat(wa.measuredFactor()).isEqualTo(3.0);
        assertThat(wa.measuredFactor(east)).isEqualTo(2.0);
        assertThat(wa.measuredFactor(sydney)).isEqualTo(1.0);
        assertThat(wa.perTrade(wa.replicaWrites())).isEqualTo(6.6, within(1e-9));
        // 3 CPU seconds over two nodes, 50 trades: 1.5 s per node per 50 trades = 30 s per 1,000
        assertThat(wa.cpuSecondsPerNodePerThousandTrades(east)).isEqualTo(30.0, within(1e-9));
        assertThat(wa.cpuSecondsPerNodePerThousandTrades(sydney)).isEqualTo(10.0, within(1e-9));
        assertThat(wa.tables()).containsExactly("t");
    }

    @Test
    void theoryIsTheSumOfReplicationFactors() {
        ClusterSnapshot none = ClusterSnapshot.at("ks", T0, List.of(zero(EAST_1), zero(EAST_2), zero(SYDNEY_1)));

        WriteAmplification wa = WriteAmplification.between(none, none, 0, REGIONS);

        assertThat(wa.theoreticalFactor()).isEqualTo(3);
        assertThat(wa.dcs()).extracting(DcAmplification::replicationFactor).containsExactly(2, 1);
        assertThat(wa.measuredFactor()).isNaN();
        assertThat(wa.perTrade(5)).isNaN();
    }

    /** The same nodes and peers with every counter at zero. */
    static ClusterSnapshot idle(ClusterSnapshot after) {
        return ClusterSnapshot.at(after.keyspace(), T0, after.nodes().stream().map(n -> snapshot(n.node(), 0, 0, Map.of(), Map.of(), 0,
                n.outbound().keySet().stream().collect(java.util.stream.Collectors.toMap(p -> p, p -> PeerTraffic.NONE)), 0)).toList());
    }

    static NodeSnapshot zero(NodeRef node) {
        return snapshot(node, 0, 0, Map.of(), Map.of(), 0, Map.of(), 0);
    }

    static NodeSnapshot snapshot(NodeRef node, long writes, long cas, Map<String, Long> coordinated, Map<String, Long> applied, long paxos,
                                 Map<String, PeerTraffic> outbound, long cpuNanos) {
        return new NodeSnapshot(node, writes, cas, coordinated, applied, paxos, outbound, cpuNanos);
    }

    @Test
    void theCommandLineAnswersHelpAndVersionAndRefusesMistakesInOneLine() {
        assertThat(run("--help")).startsWith("0\n").contains("--dcs=N[,N...]", "--broker-jar=FILE", "2   a usage error");
        assertThat(run("--version")).matches("0\nwrite-amplification \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n\n");
        assertThat(run("--nope", "1")).isEqualTo("2\n\nwrite-amplification: Unknown options: '--nope', '1' (see 'write-amplification --help')\n");
        assertThat(run("--trades", "many")).startsWith("2\n\nwrite-amplification: Invalid value for option '--trades': 'many' is not an int");
        assertThat(run("--dcs", "1,0")).isEqualTo(
                "2\n\nwrite-amplification: --dcs, --trades and --rate must be positive, --warmup at least 0 (see 'write-amplification --help')\n");
        assertThat(run("--broker-jar", "/no/such.jar")).isEqualTo("1\n\nwrite-amplification: broker jar /no/such.jar not found; "
                + "build with ./mvnw -q -pl loadtest -am install -DskipTests\n");
    }

    /** The exit status, then stdout, then stderr, a line each at least. */
    private static String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = CliConventions.execute("write-amplification", new WriteAmplificationExperiment.Cli(), new PrintWriter(out), new PrintWriter(err), args);
        return status + "\n" + out + "\n" + err;
    }
}
