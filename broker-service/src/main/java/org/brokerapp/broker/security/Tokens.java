package org.brokerapp.broker.security;

import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import com.nimbusds.jose.jwk.source.ImmutableSecret;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;

/**
 * Bearer tokens: JWTs signed with HMAC-SHA256 under {@code broker.security.token-key}, issued by
 * {@code POST /api/token} after one password check and verified on every API request by signature
 * and expiry alone, with no lookup: a few microseconds, where a BCrypt check per request costs
 * ~100 ms of CPU (docs/benchmarks/log/2026-11-28-authentication-cost.md); a token verified once is remembered
 * until it expires ({@link RememberedTokens}).
 */
@Configuration(proxyBeanMethods = false)
public class Tokens {

    public static final String ISSUER = "brokerapp";
    public static final String SCOPE = "orders";

    /** A token for {@code customerId}, good for the configured time. */
    public record Issued(String accessToken, long expiresIn) {
    }

    static SecretKey key(SecurityProperties properties) {
        byte[] bytes = Base64.getDecoder().decode(properties.tokenKey());
        if (bytes.length < 32) {
            throw new IllegalStateException("broker.security.token-key must be at least 32 bytes (base64), was " + bytes.length);
        }
        return new SecretKeySpec(bytes, "HmacSHA256");
    }

    @Bean
    JwtDecoder jwtDecoder(SecurityProperties properties) {
        return new RememberedTokens(verifier(properties), Clock.systemUTC());
    }

    /** Signature, expiry and issuer: what every token is checked for before it is accepted, or remembered. */
    static JwtDecoder verifier(SecurityProperties properties) {
        NimbusJwtDecoder decoder = NimbusJwtDecoder.withSecretKey(key(properties)).macAlgorithm(MacAlgorithm.HS256).build();
        decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(JwtValidators.createDefaultWithIssuer(ISSUER)));
        return decoder;
    }

    @Bean
    JwtEncoder jwtEncoder(SecurityProperties properties) {
        return new NimbusJwtEncoder(new ImmutableSecret<>(key(properties)));
    }

    static Issued issue(JwtEncoder encoder, SecurityProperties properties, String customerId) {
        Instant now = Instant.now();
        JwtClaimsSet claims = JwtClaimsSet.builder().issuer(ISSUER).subject(customerId).issuedAt(now)
                .expiresAt(now.plus(properties.tokenTtl())).claim("scope", List.of(SCOPE)).build();
        String token = encoder.encode(JwtEncoderParameters.from(JwsHeader.with(MacAlgorithm.HS256).build(), claims)).getTokenValue();
        return new Issued(token, properties.tokenTtl().toSeconds());
    }
}
