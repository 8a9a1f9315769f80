package org.brokerapp.broker.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.brokerapp.broker.peer.PeerAnswerSigning;
import org.brokerapp.broker.peer.PeerAuthenticationFilter;
import org.brokerapp.broker.peer.PeerSigner;
import org.brokerapp.broker.peer.PeerVerifier;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.web.ProblemResponses;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.firewall.HttpFirewall;

/**
 * Who may call what.
 * <ul>
 *   <li>Customers: {@code POST /api/token} with their password (HTTP Basic, checked with BCrypt by
 *       {@link TokenController}, rate limited on failure), then a bearer token (JWT, see {@link Tokens})
 *       on every other {@code /api/**} call, verified by signature alone: no password check per request.</li>
 *   <li>The operator (HTTP Basic, BCrypt): {@code /admin/**}, metrics, and health details.
 *       Liveness and readiness stay open for probes, without details.</li>
 *   <li>Anyone: the API docs and the live ops page (it has no data of its own: it reads Prometheus).</li>
 *   <li>Other regions' brokers: {@code /internal/**}, each call signed by the calling region's key and bound to
 *       the customer that region authenticated ({@code peer.PeerAuthenticationFilter}); no password opens it.</li>
 * </ul>
 * Customers are not users of the Basic filter: a customer's password on {@code /api/orders} is a 401,
 * so no request can make the broker spend a BCrypt check except a token request.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    /**
     * Spring Security's own observations off. With them on, each of the chain's dozen filters runs
     * inside a Micrometer observation of its own, as do the authentication and the authorization:
     * profiled under the demo's load, the observations' own code took 6-10 % of the request threads'
     * CPU, more than the order's own code. A request is still timed once, as {@code http.server.requests}.
     */
    @Bean
    SecurityObservationSettings noSecurityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    /** Spring Security's strict firewall, its character checks by a loop ({@link HeaderCharacters}); picked up by every chain. */
    @Bean
    HttpFirewall firewall() {
        return HeaderCharacters.firewall();
    }

    /**
     * {@code /api/token} checks the customer's password itself ({@link TokenController}, BCrypt, rate limited):
     * no authentication filter may look at its Basic header first, since customers are no users of theirs.
     */
    @Bean
    @Order(1)
    SecurityFilterChain tokenRequests(HttpSecurity http) throws Exception {
        return http
                .securityMatcher("/api/token")
                .csrf(csrf -> csrf.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(a -> a.anyRequest().permitAll())
                .build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain api(HttpSecurity http, PeerVerifier peers, PeerSigner answers) throws Exception {
        AuthenticationEntryPoint problem = (request, response, e) -> {
            if (e instanceof PasswordChecks.Exhausted exhausted) {
                response.setHeader("Retry-After", Long.toString(exhausted.retryAfter().toSeconds()));
                write(response, 429, "Too many requests", exhausted.getMessage(), request, null);
                return;
            }
            write(response, HttpServletResponse.SC_UNAUTHORIZED, "Unauthorized",
                request.getRequestURI().startsWith("/api/")
                        ? "a valid bearer token is required: POST /api/token with the customer's id and password (HTTP Basic) gives one"
                        : "a valid credential (HTTP Basic) is required", request,
                request.getRequestURI().startsWith("/api/") ? "Bearer" : "Basic realm=\"broker\"");
        };
        return http
                .csrf(csrf -> csrf.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(a -> a
                        .requestMatchers("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness",
                                "/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**", "/error").permitAll()
                        // the live ops page and its chart library: no data of their own (the page reads Prometheus)
                        .requestMatchers("/ops", "/ops/**", "/webjars/**").permitAll()
                        .requestMatchers("/actuator/**", "/admin/**").hasRole("OPERATOR")
                        .requestMatchers("/internal/**").hasRole("PEER")
                        .requestMatchers("/api/**").hasAuthority("SCOPE_" + Tokens.SCOPE)
                        .anyRequest().denyAll())
                .addFilterBefore(new PeerAnswerSigning(answers), BasicAuthenticationFilter.class)
                .addFilterBefore(new PeerAuthenticationFilter(peers), BasicAuthenticationFilter.class)
                .httpBasic(basic -> basic.authenticationEntryPoint(problem))
                .oauth2ResourceServer(resource -> resource.jwt(jwt -> { }).authenticationEntryPoint(problem))
                .exceptionHandling(e -> e.authenticationEntryPoint(problem).accessDeniedHandler((request, response, denied) ->
                        write(response, HttpServletResponse.SC_FORBIDDEN, "Forbidden", "this credential may not use this endpoint", request, null)))
                .build();
    }

    private static void write(HttpServletResponse response, int status, String title, String detail, HttpServletRequest request, String challenge)
            throws java.io.IOException {
        if (challenge != null) {
            response.setHeader("WWW-Authenticate", challenge);
        }
        ProblemResponses.write(response, status, title, detail, request.getRequestURI());
    }

    /**
     * BCrypt for new hashes; reads {@code {bcrypt}} (and the other standard ids) in configured hashes.
     * A password verified once is remembered ({@link CachingPasswordEncoder}): Prometheus scrapes as
     * the operator every 5 s, which would otherwise cost a BCrypt check per scrape.
     */
    @Bean
    CachingPasswordEncoder passwordEncoder(io.micrometer.core.instrument.MeterRegistry registry) {
        io.micrometer.core.instrument.Counter checks = io.micrometer.core.instrument.Counter.builder("broker.password.checks")
                .description("Password hashes checked (BCrypt); a remembered password and an unknown login cost none")
                .register(registry);
        return new CachingPasswordEncoder(PasswordEncoderFactories.createDelegatingPasswordEncoder(), checks::increment);
    }

    /** The HTTP Basic users: the operator only, never customers (tokens) or brokers (signatures); any other name costs no hash. */
    @Bean
    OperatorLogin operatorLogin(BrokerProperties properties, CachingPasswordEncoder encoder, PasswordChecks checks) {
        String secret = properties.failover().operatorPassword();
        return new OperatorLogin(secret.startsWith("{bcrypt}") ? secret : encoder.encode(secret), encoder, checks);
    }
}
