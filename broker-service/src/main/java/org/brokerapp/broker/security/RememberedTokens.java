package org.brokerapp.broker.security;

import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;

/**
 * Remembers the bearer tokens it has verified, until each one's expiry. A customer sends the same
 * token with every request for the token's lifetime, and verifying it anew each time (parsing the
 * JWT, its HMAC, converting its claims, the issuer into a URL) took about 11 % of the request
 * threads' CPU in a profiled demo (docs/benchmarks/log/http-path.md). A token is remembered only once the decoder
 * has verified it, keyed by the whole token (its signature included), and counts only before its
 * {@code exp}: past it, the decoder judges again, with its own leeway. So nothing is accepted that
 * the decoder would refuse. Bounded: when full of unexpired tokens, further ones are verified
 * every time rather than remembered.
 */
final class RememberedTokens implements JwtDecoder {

    static final int MAX_REMEMBERED = 10_000;

    private final JwtDecoder verifier;
    private final InstantSource clock;
    private final Map<String, Jwt> verified = new ConcurrentHashMap<>();

    RememberedTokens(JwtDecoder verifier, InstantSource clock) {
        this.verifier = verifier;
        this.clock = clock;
    }

    @Override
    public Jwt decode(String token) {
        Jwt known = token == null ? null : verified.get(token);
        if (known != null && clock.instant().isBefore(known.getExpiresAt())) {
            return known;
        }
        Jwt jwt = verifier.decode(token);
        remember(token, jwt);
        return jwt;
    }

    private void remember(String token, Jwt jwt) {
        if (jwt.getExpiresAt() == null) {
            return;
        }
        if (verified.size() >= MAX_REMEMBERED) {
            Instant now = clock.instant();
            verified.values().removeIf(expired -> !now.isBefore(expired.getExpiresAt()));
            if (verified.size() >= MAX_REMEMBERED) {
                return;
            }
        }
        verified.put(token, jwt);
    }

    int remembered() {
        return verified.size();
    }
}
