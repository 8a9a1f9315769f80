package org.brokerapp.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;

/**
 * The credential findings of issue #12, without a broker: passwords are held hashed and checked
 * for a token only, tokens are verified by signature, failed logins and orders are rate limited,
 * and no built-in secret works outside the local profile.
 */
class CredentialsTests {

    private static final SecurityProperties PROPERTIES = new SecurityProperties(SecretsCheck.LOCAL_VALUES.get("broker.security.token-key"),
            Duration.ofHours(1), 3, 20, Duration.ZERO, 16, Duration.ZERO, 5);
    private static final PasswordEncoder ENCODER = PasswordEncoderFactories.createDelegatingPasswordEncoder();

    private final Tokens tokens = new Tokens();
    private final JwtDecoder decoder = tokens.jwtDecoder(PROPERTIES);
    private final CountingEncoder counting = new CountingEncoder();
    private final TokenController controller = new TokenController(new CustomerPasswords(Map.of("alice", "alice-pw", "bob", "bob-pw")),
            new CachingPasswordEncoder(counting), tokens.jwtEncoder(PROPERTIES), PROPERTIES, new PasswordChecks(PROPERTIES));

    @Test
    void theRightPasswordBuysATokenThatVerifiesBySignature() {
        ResponseEntity<Map<String, Object>> answer = controller.token(basic("alice", "alice-pw"), from("198.51.100.7"));

        Jwt jwt = decoder.decode((String) answer.getBody().get("access_token"));
        assertThat(jwt.getSubject()).isEqualTo("alice");
        assertThat(jwt.getClaimAsStringList("scope")).containsExactly("orders");
        assertThat(answer.getBody()).containsEntry("token_type", "Bearer").containsEntry("expires_in", 3600L);
    }

    @Test
    void aTokenWithAnotherSignatureOrAnotherSubjectIsRefused() {
        String token = (String) controller.token(basic("alice", "alice-pw"), from("198.51.100.7")).getBody().get("access_token");
        String[] parts = token.split("\\.");
        String otherSubject = Base64.getUrlEncoder().withoutPadding().encodeToString(new String(Base64.getUrlDecoder().decode(parts[1]),
                StandardCharsets.UTF_8).replace("\"alice\"", "\"bob\"").getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> decoder.decode(parts[0] + "." + otherSubject + "." + parts[2])).isInstanceOf(JwtException.class);
        assertThatThrownBy(() -> decoder.decode(parts[0] + "." + parts[1] + "." + parts[2].substring(1) + "A")).isInstanceOf(JwtException.class);
        SecurityProperties otherKey = new SecurityProperties(Base64.getEncoder().encodeToString(new byte[32]), Duration.ofHours(1), 3,
                20, Duration.ZERO, 16, Duration.ZERO, 5);
        assertThatThrownBy(() -> tokens.jwtDecoder(otherKey).decode(token)).isInstanceOf(JwtException.class);
    }

    /**
     * Finding (#55): five failed logins a minute in a customer's name locked the customer out. The
     * budget is the source address's: past it the source is refused (429), and the same customer
     * logs in from another address at once.
     */
    @Test
    void wrongPasswordsSlowTheirSourceNotTheCustomer() {
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> controller.token(basic("alice", "guess"), from("203.0.113.9"))).isInstanceOf(TokenController.Unauthorized.class);
        }

        assertThatThrownBy(() -> controller.token(basic("alice", "guess"), from("203.0.113.9"))).isInstanceOf(TooManyRequests.class)
                .satisfies(e -> assertThat(((TooManyRequests) e).retryAfter()).isPresent());
        assertThat(controller.token(basic("alice", "alice-pw"), from("198.51.100.7")).getStatusCode().value()).isEqualTo(200);
    }

    /** Finding (#55): random logins each cost a BCrypt check; an unknown customer now costs none, and a remembered success none. */
    @Test
    void anUnknownCustomerOrARememberedPasswordCostsNoHash() {
        controller.token(basic("bob", "bob-pw"), from("198.51.100.7"));
        int checks = counting.checks;

        for (int i = 0; i < 100; i++) {
            assertThatThrownBy(() -> controller.token(basic("mallory-" + UUID.randomUUID(), "x"), from("203.0.113.9")))
                    .isInstanceOf(TokenController.Unauthorized.class);
        }
        controller.token(basic("bob", "bob-pw"), from("198.51.100.7"));

        assertThat(counting.checks).isEqualTo(checks);
    }

    @Test
    void anUnknownCustomerIsAsWrongAsAWrongPassword() {
        assertThatThrownBy(() -> controller.token(basic("mallory", "x"), from("203.0.113.9"))).isInstanceOf(TokenController.Unauthorized.class)
                .hasMessage("wrong customer id or password");
        assertThatThrownBy(() -> controller.token("Bearer x", from("203.0.113.9"))).isInstanceOf(TokenController.Unauthorized.class);
        assertThatThrownBy(() -> controller.token(null, from("203.0.113.9"))).isInstanceOf(TokenController.Unauthorized.class);
    }

    @Test
    void passwordsAreHeldHashed() {
        String hash = ENCODER.encode("bob-pw");
        CustomerPasswords passwords = new CustomerPasswords(Map.of("bob", hash));

        assertThat(hash).startsWith("{bcrypt}$2a$10$");
        assertThat(passwords.matches("bob", "bob-pw", ENCODER)).isTrue();
        assertThat(passwords.matches("bob", hash, ENCODER)).as("the hash is not the password").isFalse();
    }

    @Test
    void ordersBeyondTheCustomersRateAre429() throws Exception {
        OrderRateLimit limit = new OrderRateLimit(PROPERTIES);
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/orders");
        request.setUserPrincipal((Principal) () -> "alice");

        for (int i = 0; i < 5; i++) {
            assertThat(limit.preHandle(request, new MockHttpServletResponse(), new Object())).isTrue();
        }
        assertThatThrownBy(() -> limit.preHandle(request, new MockHttpServletResponse(), new Object())).isInstanceOf(TooManyRequests.class);
        MockHttpServletRequest bob = new MockHttpServletRequest("POST", "/api/orders");
        bob.setUserPrincipal((Principal) () -> "bob");
        assertThat(limit.preHandle(bob, new MockHttpServletResponse(), new Object())).as("per customer").isTrue();
    }

    @Test
    void withoutTheLocalProfileTheBrokerRefusesToStartWithOneLine() {
        MockEnvironment production = new MockEnvironment();

        assertThatThrownBy(() -> new SecretsCheck().postProcessEnvironment(production, new SpringApplication()))
                .isInstanceOf(SecretsCheck.MissingSecrets.class)
                .hasMessageContaining("broker.security.token-key is not set")
                .hasMessageContaining("broker.peers.private-key is not set")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void theLocalValuesAreRefusedOutsideTheLocalProfileEvenWhenGiven() {
        MockEnvironment production = new MockEnvironment();
        SecretsCheck.LOCAL_VALUES.forEach(production::setProperty);
        production.setProperty("broker.peers.private-key", SecretsCheck.LOCAL_PRIVATE_KEYS.iterator().next());
        production.setProperty("broker.seed-accounts[0].customer-id", "alice");
        production.setProperty("broker.seed-accounts[0].password", "alice-pw");

        assertThatThrownBy(() -> new SecretsCheck().postProcessEnvironment(production, new SpringApplication()))
                .hasMessageContaining("broker.peers.private-key is the local profile's built-in value")
                .hasMessageContaining("broker.seed-accounts[0].password is not a {bcrypt} hash");
    }

    @Test
    void realSecretsStartWithoutTheLocalProfileAndTheLocalProfileStartsWithItsOwn() {
        MockEnvironment production = new MockEnvironment()
                .withProperty("broker.security.token-key", Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes()))
                .withProperty("broker.peers.private-key", "a-real-region-key").withProperty("broker.failover.operator-password", ENCODER.encode("x"));
        new SecretsCheck().postProcessEnvironment(production, new SpringApplication());

        MockEnvironment local = new MockEnvironment();
        local.setActiveProfiles("local");
        new SecretsCheck().postProcessEnvironment(local, new SpringApplication());
    }

    private static MockHttpServletRequest from(String address) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/token");
        request.setRemoteAddr(address);
        return request;
    }

    /** BCrypt, counting its checks. */
    private static final class CountingEncoder implements PasswordEncoder {
        int checks;

        @Override
        public String encode(CharSequence raw) {
            return ENCODER.encode(raw);
        }

        @Override
        public boolean matches(CharSequence raw, String encoded) {
            checks++;
            return ENCODER.matches(raw, encoded);
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
