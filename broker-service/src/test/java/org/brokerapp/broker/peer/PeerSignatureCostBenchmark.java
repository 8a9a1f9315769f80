package org.brokerapp.broker.peer;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.brokerapp.broker.support.CpuPerOp;
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
 * What signing and verifying one call between brokers costs (every routed MARKET order, forwarded
 * placement and relayed batch of events pays one of each), side by side in one run:
 * <ul>
 *   <li>{@code jdkSign}, {@code jdkVerify}: Ed25519 by the JDK's own provider, as the brokers did first;</li>
 *   <li>{@code sign}, {@code verify}: {@link PeerSigner} and {@link PeerVerifier} now (Bouncy Castle's Ed25519),
 *       the same keys and signatures.</li>
 * </ul>
 * Not a test (JUnit does not run it); run from the repository root, command in docs/benchmarks/log/2026-11-24-cross-region-market.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class PeerSignatureCostBenchmark {

    private static final String PRIVATE = "MC4CAQAwBQYDK2VwBCIEICktj06Bl1H8HY6xw1Sr3d5xao/og4qntkUL29PPoPUO";
    private static final String PUBLIC = "MCowBQYDK2VwAyEA9b9JcRGzCouPpyDXC5zZOpOIJlyXOPC/xV7kdN93q/g=";
    private static final URI CALL = URI.create("http://127.0.1.3:8080/internal/market-orders");
    private static final String PATH = "/internal/market-orders";
    /** A routed MARKET order's body, as large as the real ones. */
    private static final byte[] BODY = ("{\"customerId\":\"load-17\",\"clientOrderId\":\"c-000123456\",\"symbol\":\"IBM\",\"side\":\"BUY\","
            + "\"quantity\":100,\"placedRegion\":\"ap-southeast-2\",\"maxPrice\":151.2500,\"retry\":false}").getBytes(StandardCharsets.UTF_8);

    private PeerSigner signer;
    private PeerVerifier verifier;
    private Function<String, String> headers;
    private PrivateKey jdkPrivate;
    private PublicKey jdkPublic;
    private long signedAt;
    private byte[] signature;
    @SuppressWarnings("unchecked")
    private final Function<String, String>[] signedCalls = new Function[20_000];
    private int next;

    @Setup
    public void setUp() throws GeneralSecurityException {
        signer = new PeerSigner("ap-southeast-2", PRIVATE, Clock.systemUTC());
        verifier = newVerifier();
        headers = signer.headers(CALL, "us-east-1", BODY, "load-17")::get;
        for (int i = 0; i < signedCalls.length; i++) {
            signedCalls[i] = signer.headers(CALL, "us-east-1", BODY, "load-17")::get;
        }
        jdkPrivate = KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(PRIVATE)));
        jdkPublic = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(PUBLIC)));
        signedAt = Long.parseLong(headers.apply(PeerSignature.TIME));
        signature = Base64.getDecoder().decode(headers.apply(PeerSignature.SIGNATURE));
    }

    /** CPU time per operation ({@link CpuPerOp}), printed. */
    public static void main(String[] args) throws GeneralSecurityException {
        PeerSignatureCostBenchmark b = new PeerSignatureCostBenchmark();
        b.setUp();
        for (int round = 1; round <= 2; round++) {
            System.out.printf("round %d: jdkSign %.1f us, sign %.1f us, jdkVerify %.1f us, verify %.1f us CPU/op%n", round,
                    CpuPerOp.micros(b::jdkSign, 5_000), CpuPerOp.micros(b::sign, 5_000), CpuPerOp.micros(b::jdkVerify, 5_000),
                    CpuPerOp.micros(b::verify, 5_000));
        }
    }

    @Benchmark
    public Object sign() {
        return signer.headers(CALL, "us-east-1", BODY, "load-17");
    }

    /** Each call once (a verifier refuses a call it has seen): the pool's calls in turn, with a new verifier each round. */
    @Benchmark
    public Object verify() throws PeerVerifier.Refused {
        if (next == signedCalls.length) {
            next = 0;
            verifier = newVerifier();
        }
        return verifier.verify("POST", PATH, signedCalls[next++], BODY);
    }

    private static PeerVerifier newVerifier() {
        return new PeerVerifier("us-east-1", Map.of("ap-southeast-2", PUBLIC), Duration.ofDays(1), Clock.systemUTC());
    }

    @Benchmark
    public byte[] jdkSign() throws GeneralSecurityException {
        Signature s = Signature.getInstance("Ed25519");
        s.initSign(jdkPrivate);
        s.update(PeerSignature.signedBytes("POST", PATH, "ap-southeast-2", "us-east-1", "load-17", System.currentTimeMillis(),
                headers.apply(PeerSignature.NONCE), BODY));
        return s.sign();
    }

    @Benchmark
    public boolean jdkVerify() throws GeneralSecurityException {
        Signature s = Signature.getInstance("Ed25519");
        s.initVerify(jdkPublic);
        s.update(PeerSignature.signedBytes("POST", PATH, "ap-southeast-2", "us-east-1", "load-17", signedAt,
                headers.apply(PeerSignature.NONCE), BODY));
        return s.verify(signature);
    }
}
