package org.brokerapp.broker.system;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.NoOpPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Customers authenticate with HTTP Basic; the seed accounts are the users. Their passwords are
 * demo credentials from configuration, compared as given ({@code {noop}}): a deliberately slow hash
 * would cost more CPU per request than matching an order (see {@link #passwordEncoder()}). A production deployment would put an
 * OAuth2 resource server (bearer tokens) here. Health, metrics, the API docs and the ops page are open.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    @Bean
    SecurityFilterChain api(HttpSecurity http) throws Exception {
        AuthenticationEntryPoint problem = (request, response, e) -> {
            response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            response.setHeader("WWW-Authenticate", "Basic realm=\"broker\"");
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.getOutputStream().write(("{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401,"
                    + "\"detail\":\"a valid customer credential (HTTP Basic) is required\",\"instance\":\"" + request.getRequestURI().replace("\"", "") + "\"}")
                    .getBytes(StandardCharsets.UTF_8));
        };
        return http
                .csrf(csrf -> csrf.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(a -> a
                        .requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/info", "/actuator/prometheus", "/actuator/latency",
                                "/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**", "/error").permitAll()
                        // the live ops page and its chart library: no data of their own (the page reads Prometheus)
                        .requestMatchers("/ops", "/ops/**", "/webjars/**").permitAll()
                        .requestMatchers("/internal/**").hasRole("ROUTER")
                        .requestMatchers("/admin/**").hasRole("OPERATOR")
                        .anyRequest().hasRole("CUSTOMER"))
                .httpBasic(basic -> basic.authenticationEntryPoint(problem))
                .exceptionHandling(e -> e.authenticationEntryPoint(problem).accessDeniedHandler((request, response, denied) -> {
                    response.setStatus(HttpServletResponse.SC_FORBIDDEN);
                    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
                    response.getOutputStream().write(("{\"type\":\"about:blank\",\"title\":\"Forbidden\",\"status\":403,"
                            + "\"detail\":\"this credential may not use this endpoint\",\"instance\":\"" + request.getRequestURI().replace("\"", "") + "\"}")
                            .getBytes(StandardCharsets.UTF_8));
                }))
                .build();
    }

    /**
     * Compares demo passwords as given. Spring Security's default encoder would "upgrade" a
     * {@code {noop}} password to BCrypt at the first login, after which every request spends
     * ~100 ms of CPU in BCrypt: measured, it saturated the broker at 30 orders/s.
     */
    @Bean
    @SuppressWarnings("deprecation")
    PasswordEncoder passwordEncoder() {
        return new DelegatingPasswordEncoder("noop", Map.of("noop", NoOpPasswordEncoder.getInstance()));
    }

    @Bean
    UserDetailsService customers(BrokerProperties properties) {
        List<UserDetails> users = new ArrayList<>(properties.allAccounts().stream()
                .map(a -> User.withUsername(a.customerId()).password("{noop}" + a.password()).roles("CUSTOMER").build())
                .toList());
        // other regions' brokers, routing market orders here
        users.add(User.withUsername("router").password("{noop}" + properties.routing().token()).roles("ROUTER").build());
        users.add(User.withUsername("operator").password("{noop}" + properties.failover().operatorPassword()).roles("OPERATOR").build());
        return new InMemoryUserDetailsManager(users);
    }
}
