package org.brokerapp.loadtest.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.brokerapp.loadtest.deployment.Target;
import org.brokerapp.loadtest.measure.LatencyBook;
import org.brokerapp.loadtest.measure.Measures;
import org.junit.jupiter.api.Test;

/** The WAN floor's echo and round trips on loopback (no emulator: the round trip is the bare socket's). */
class WanFloorTests {

    @Test
    void itTimesRoundTripsThroughItsOwnEchoAndFreesTheAddressOnClose() throws Exception {
        InetSocketAddress echo = new InetSocketAddress("127.0.0.1", freePort());
        LatencyBook latencies = new LatencyBook();

        try (WanFloor floor = new WanFloor("us-east-1", new Target.WanEcho(echo, echo), latencies)) {
            long deadline = System.nanoTime() + 10_000_000_000L;
            long samples = 0;
            while (samples < 2 && System.nanoTime() < deadline) {
                Thread.sleep(WanFloor.EVERY.toMillis());
                Map<String, Histogram> interval = latencies.sampleInterval();
                samples += interval.containsKey(Measures.wanFloor("us-east-1")) ? interval.get(Measures.wanFloor("us-east-1")).getTotalCount() : 0;
            }
            assertThat(samples).as("round trips timed within 10 s").isGreaterThanOrEqualTo(2);
        }

        try (ServerSocket again = new ServerSocket()) {
            again.setReuseAddress(true);
            again.bind(echo);
            assertThat(again.isBound()).isTrue();
        }
    }

    @Test
    void anEchoNobodyAnswersGivesNoSampleAndNoFailure() throws Exception {
        InetSocketAddress echo = new InetSocketAddress("127.0.0.1", freePort());
        InetSocketAddress nowhere = new InetSocketAddress("127.0.0.1", freePort());
        LatencyBook latencies = new LatencyBook();

        try (WanFloor floor = new WanFloor("ap-southeast-2", new Target.WanEcho(echo, nowhere), latencies)) {
            Thread.sleep(3 * WanFloor.EVERY.toMillis());
            Histogram none = latencies.sampleInterval().get(Measures.wanFloor("ap-southeast-2"));
            assertThat(none == null ? 0 : none.getTotalCount()).isZero();
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
