package org.brokerapp.ticker;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.model.SimulatedMarket;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ticks per second one core encodes and decodes (docs/benchmarks/README.md). Run by hand:
 * {@code java -cp ticker-feed/target/test-classes:ticker-feed/target/classes:$(cat ticker-feed/target/test-classpath.txt) org.openjdk.jmh.Main TickCodecBenchmark}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = "-Xmx1g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class TickCodecBenchmark {

    private static final int SAMPLES = 1024;

    private final Tick[] ticks = new Tick[SAMPLES];
    private final byte[][] encoded = new byte[SAMPLES][];
    private int next;

    @Setup
    public void simulateTicks() {
        SimulatedMarket market = SimulatedMarket.forRegion(RegionsFile.loadDefault().region("us-east-1"), SymbolUniverse.loadDefault(),
                1, 1.1, Instant.parse("2025-11-21T14:30:00Z"));
        for (int i = 0; i < SAMPLES; i++) {
            ticks[i] = market.tickAt(i * 20_000L);
            encoded[i] = TickCodec.encode(ticks[i]);
        }
    }

    @Benchmark
    public byte[] encode() {
        return TickCodec.encode(ticks[next++ & (SAMPLES - 1)]);
    }

    @Benchmark
    public Tick decode() {
        return TickCodec.decode(encoded[next++ & (SAMPLES - 1)]);
    }

    @Benchmark
    public Tick encodeThenDecode() {
        return TickCodec.decode(TickCodec.encode(ticks[next++ & (SAMPLES - 1)]));
    }
}
