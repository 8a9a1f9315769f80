package org.brokerapp.broker.security;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.NoOpPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/**
 * What authenticating one API request costs the broker's CPU, per scheme (JMH average time):
 * <ul>
 *   <li>{@code basicPlainText}: before issue #12, HTTP Basic against a password kept in plain text ({@code {noop}});</li>
 *   <li>{@code basicBcrypt}: HTTP Basic against a BCrypt hash (cost 10), the safe way to keep a password,
 *       checked on every request: what saturated the broker at 30 orders/s;</li>
 *   <li>{@code bearerJwt}: now: a bearer token already verified once ({@link RememberedTokens}), turned into
 *       the request's authentication (what the resource server does per request);</li>
 *   <li>{@code bearerJwtNew}: a bearer token seen for the first time: verified by its HMAC-SHA256 signature,
 *       expiry and issuer, then likewise turned into the request's authentication;</li>
 *   <li>{@code tokenIssue}: now: {@code POST /api/token}, once per session: a BCrypt check plus signing.</li>
 * </ul>
 * Not a test (JUnit does not run it); run from the repository root, command in docs/benchmarks/log/2026-11-28-authentication-cost.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class AuthenticationCostBenchmark {

    private static final SecurityProperties PROPERTIES = new SecurityProperties(SecretsCheck.LOCAL_VALUES.get("broker.security.token-key"),
            Duration.ofHours(1), 1_000_000, 1_000_000, Duration.ZERO, 16, Duration.ZERO, 50);

    private DaoAuthenticationProvider plainText;
    private DaoAuthenticationProvider bcrypt;
    private JwtDecoder decoder;
    private JwtDecoder verifier;
    private final JwtAuthenticationConverter converter = new JwtAuthenticationConverter();
    private TokenController tokens;
    private String token;
    private String basic;

    @Setup
    @SuppressWarnings("deprecation")
    public void setUp() {
        PasswordEncoder noop = new DelegatingPasswordEncoder("noop", Map.of("noop", NoOpPasswordEncoder.getInstance()));
        plainText = provider(User.withUsername("alice").password("{noop}alice-pw").roles("CUSTOMER").build(), noop);
        PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
        bcrypt = provider(User.withUsername("alice").password(encoder.encode("alice-pw")).roles("CUSTOMER").build(), encoder);
        Tokens config = new Tokens();
        decoder = config.jwtDecoder(PROPERTIES);
        verifier = Tokens.verifier(PROPERTIES);
        CachingPasswordEncoder remembering = new CachingPasswordEncoder(encoder);
        tokens = new TokenController(new CustomerPasswords(Map.of("alice", encoder.encode("alice-pw"))), remembering, config.jwtEncoder(PROPERTIES),
                PROPERTIES, new PasswordChecks(PROPERTIES));
        basic = "Basic " + java.util.Base64.getEncoder().encodeToString("alice:alice-pw".getBytes());
        token = (String) tokens.token(basic, new org.springframework.mock.web.MockHttpServletRequest()).getBody().get("access_token");
    }

    private static DaoAuthenticationProvider provider(org.springframework.security.core.userdetails.UserDetails user, PasswordEncoder encoder) {
        DaoAuthenticationProvider provider = new DaoAuthenticationProvider(new InMemoryUserDetailsManager(user));
        provider.setPasswordEncoder(encoder);
        return provider;
    }

    /** CPU time per operation ({@link CpuPerOp}), printed. */
    public static void main(String[] args) {
        AuthenticationCostBenchmark b = new AuthenticationCostBenchmark();
        b.setUp();
        System.out.printf("basicPlainText %.1f us CPU/op%n", CpuPerOp.micros(b::basicPlainText, 200_000));
        System.out.printf("bearerJwt      %.1f us CPU/op%n", CpuPerOp.micros(b::bearerJwt, 50_000));
        System.out.printf("bearerJwtNew   %.1f us CPU/op%n", CpuPerOp.micros(b::bearerJwtNew, 50_000));
        System.out.printf("basicBcrypt    %.1f us CPU/op%n", CpuPerOp.micros(b::basicBcrypt, 40));
        System.out.printf("tokenIssue     %.1f us CPU/op%n", CpuPerOp.micros(b::tokenIssue, 40));
    }

    @Benchmark
    public Authentication basicPlainText() {
        return plainText.authenticate(UsernamePasswordAuthenticationToken.unauthenticated("alice", "alice-pw"));
    }

    @Benchmark
    public Authentication basicBcrypt() {
        return bcrypt.authenticate(UsernamePasswordAuthenticationToken.unauthenticated("alice", "alice-pw"));
    }

    @Benchmark
    public Authentication bearerJwt() {
        return converter.convert(decoder.decode(token));
    }

    /** A token not seen before: verified in full (the remembered ones cost {@link #bearerJwt}). */
    @Benchmark
    public Authentication bearerJwtNew() {
        return converter.convert(verifier.decode(token));
    }

    /** A token for a password verified before: the password remembered, so a JWT's signature and no BCrypt. */
    @Benchmark
    public Object tokenIssue() {
        return tokens.token(basic, new org.springframework.mock.web.MockHttpServletRequest());
    }
}
