package org.brokerapp.broker.security;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.brokerapp.broker.core.ApiProblem;
import org.brokerapp.broker.web.OpenApiConfiguration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/token} with the customer's password (HTTP Basic): the one place a customer's
 * password is checked (BCrypt), answered with a bearer token for every other API call. An unknown
 * customer is refused at once, without a hash; a password check takes its turn in the source
 * address's budget first ({@link PasswordChecks}: wait, then 429 with Retry-After), so a stranger
 * guessing slows only the stranger, never locks the customer out, and cannot spend the broker's CPU.
 */
@RestController
@Tag(name = "authentication")
@SecurityRequirement(name = OpenApiConfiguration.BASIC)
class TokenController {

    private final CustomerPasswords passwords;
    private final CachingPasswordEncoder encoder;
    private final JwtEncoder jwt;
    private final SecurityProperties properties;
    private final PasswordChecks checks;

    TokenController(CustomerPasswords passwords, CachingPasswordEncoder encoder, JwtEncoder jwt, SecurityProperties properties, PasswordChecks checks) {
        this.passwords = passwords;
        this.encoder = encoder;
        this.jwt = jwt;
        this.properties = properties;
        this.checks = checks;
    }

    @Operation(summary = "A bearer token for the customer whose password is given (HTTP Basic)")
    @PostMapping("/api/token")
    ResponseEntity<Map<String, Object>> token(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                              HttpServletRequest request) {
        String[] credential = basic(authorization);
        if (credential == null) {
            throw new Unauthorized("give the customer id and password with HTTP Basic");
        }
        Optional<String> hash = passwords.hashOf(credential[0], encoder);
        if (hash.isEmpty()) {
            throw new Unauthorized("wrong customer id or password");
        }
        if (!encoder.remembers(credential[1], hash.get())) {
            try {
                checks.admit(request.getRemoteAddr());
            } catch (PasswordChecks.Exhausted e) {
                throw new TooManyRequests(e.getMessage(), e.retryAfter());
            }
            if (!encoder.matches(credential[1], hash.get())) {
                throw new Unauthorized("wrong customer id or password");
            }
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
