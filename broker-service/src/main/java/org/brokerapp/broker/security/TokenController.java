package org.brokerapp.broker.security;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.brokerapp.broker.core.ApiProblem;
import org.brokerapp.broker.system.OpenApiConfiguration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/token} with the customer's password (HTTP Basic): the one place a password is
 * checked (BCrypt), answered with a bearer token for every other API call. Failed checks are
 * limited per customer ({@code broker.security.failed-logins} per {@code failed-logins-period},
 * Resilience4j RateLimiter): beyond them the answer is 429 with Retry-After, so guessing a password
 * costs a period per few guesses and the broker's CPU is not spent on BCrypt for an attacker.
 */
@RestController
@Tag(name = "authentication")
@SecurityRequirement(name = OpenApiConfiguration.BASIC)
class TokenController {

    private final CustomerPasswords passwords;
    private final PasswordEncoder encoder;
    private final JwtEncoder jwt;
    private final SecurityProperties properties;
    private final RateLimiterRegistry failedLogins;

    TokenController(CustomerPasswords passwords, PasswordEncoder encoder, JwtEncoder jwt, SecurityProperties properties) {
        this.passwords = passwords;
        this.encoder = encoder;
        this.jwt = jwt;
        this.properties = properties;
        this.failedLogins = RateLimiterRegistry.of(RateLimiterConfig.custom().limitForPeriod(properties.failedLogins())
                .limitRefreshPeriod(properties.failedLoginsPeriod()).timeoutDuration(Duration.ZERO).build());
    }

    @Operation(summary = "A bearer token for the customer whose password is given (HTTP Basic)")
    @PostMapping("/api/token")
    ResponseEntity<Map<String, Object>> token(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization) {
        String[] credential = basic(authorization);
        if (credential == null) {
            throw new Unauthorized("give the customer id and password with HTTP Basic");
        }
        RateLimiter failures = failedLogins.rateLimiter(credential[0]);
        if (failures.getMetrics().getAvailablePermissions() <= 0) {
            throw new TooManyRequests("too many failed logins for this customer; wait and retry", properties.failedLoginsPeriod());
        }
        if (!passwords.matches(credential[0], credential[1], encoder)) {
            failures.acquirePermission();
            throw new Unauthorized("wrong customer id or password");
        }
        Tokens.Issued issued = Tokens.issue(jwt, properties, credential[0]);
        return ResponseEntity.ok(Map.of("access_token", issued.accessToken(), "token_type", "Bearer", "expires_in", issued.expiresIn()));
    }

    /** {@code [user, password]} of a Basic header, or null. */
    private static String[] basic(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon <= 0 ? null : new String[] {decoded.substring(0, colon), decoded.substring(colon + 1)};
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }

    /** A failed password check: 401 problem+json with a Basic challenge. */
    static final class Unauthorized extends ApiProblem {
        Unauthorized(String detail) {
            super(HttpStatus.UNAUTHORIZED, "Unauthorized", detail);
        }

        @Override
        public Optional<String> challenge() {
            return Optional.of("Basic realm=\"broker\"");
        }
    }
}
