package org.brokerapp.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;

class RememberedTokensTests {

    private static final SecurityProperties PROPERTIES = new SecurityProperties(SecretsCheck.LOCAL_VALUES.get("broker.security.token-key"),
            Duration.ofHours(1), 3, 20, Duration.ZERO, 16, Duration.ZERO, 5);

    private final Tokens tokens = new Tokens();
    private final JwtDecoder real = Tokens.verifier(PROPERTIES);
    private final AtomicInteger verified = new AtomicInteger();
    private final JwtDecoder counting = token -> {
        verified.incrementAndGet();
        return real.decode(token);
    };
    private final MutableClock clock = new MutableClock(Instant.now());
    private final RememberedTokens decoder = new RememberedTokens(counting, clock);

    @Test
    void aTokenIsVerifiedOnceThenRememberedUntilItExpires() {
        String token = issue("alice");

        Jwt first = decoder.decode(token);
        Jwt again = decoder.decode(token);
        decoder.decode(token);

        assertThat(again).isSameAs(first);
        assertThat(again.getSubject()).isEqualTo("alice");
        assertThat(verified).hasValue(1);

        clock.now = first.getExpiresAt();
        decoder.decode(token);
        assertThat(verified).as("at its expiry, judged by the decoder again (it still allows its leeway)").hasValue(2);
    }

    @Test
    void aForgedTokenIsRefusedEvenBesideARememberedOneAndIsNeverRemembered() {
        String token = issue("alice");
        decoder.decode(token);
        String[] parts = token.split("\\.");
        String otherSignature = parts[0] + "." + parts[1] + "." + parts[2].substring(1) + "A";

        assertThatThrownBy(() -> decoder.decode(otherSignature)).isInstanceOf(JwtException.class);
        assertThatThrownBy(() -> decoder.decode(otherSignature)).isInstanceOf(JwtException.class);
        assertThatThrownBy(() -> decoder.decode("not a token")).isInstanceOf(JwtException.class);

        assertThat(verified).as("every refusal verified in full").hasValue(4);
        assertThat(decoder.remembered()).isEqualTo(1);
    }

    @Test
    void pastItsExpiryARememberedTokenIsWhatTheVerifierSays() {
        AtomicBoolean expired = new AtomicBoolean();
        RememberedTokens withExpiry = new RememberedTokens(token -> {
            if (expired.get()) {
                throw new BadJwtException("An error occurred while attempting to decode the Jwt: Jwt expired");
            }
            return real.decode(token);
        }, clock);
        String token = issue("alice");
        Jwt jwt = withExpiry.decode(token);

        clock.now = jwt.getExpiresAt().plusSeconds(3600);
        expired.set(true);

        assertThatThrownBy(() -> withExpiry.decode(token)).isInstanceOf(JwtException.class).hasMessageContaining("expired");
    }

    @Test
    void whenFullOfUnexpiredTokensFurtherOnesAreVerifiedEveryTime() {
        RememberedTokens small = new RememberedTokens(token -> fakeJwt(token, clock.instant().plusSeconds(60)), clock);
        for (int i = 0; i < RememberedTokens.MAX_REMEMBERED; i++) {
            small.decode("t" + i);
        }
        small.decode("one more");
        assertThat(small.remembered()).isEqualTo(RememberedTokens.MAX_REMEMBERED);

        clock.now = clock.now.plusSeconds(61);
        small.decode("after they all expired");
        assertThat(small.remembered()).as("the expired ones forgotten").isEqualTo(1);
    }

    private String issue(String customer) {
        return Tokens.issue(tokens.jwtEncoder(PROPERTIES), PROPERTIES, customer).accessToken();
    }

    private static Jwt fakeJwt(String token, Instant expiresAt) {
        return Jwt.withTokenValue(token).header("alg", "HS256").subject("x").issuedAt(expiresAt.minusSeconds(60)).expiresAt(expiresAt).build();
    }

    /** Time that moves only when a test says so. */
    private static final class MutableClock implements InstantSource {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
