package org.brokerapp.broker.security;

import java.util.List;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

/**
 * The one HTTP Basic user: the operator ({@code /admin/**}, metrics, health details). Any other
 * name is refused before any hash is computed: customers log in with tokens and brokers with
 * signatures, so a Basic login under another name is never right, and a stranger's random logins
 * cost no BCrypt. The operator's password is checked within the source's budget ({@link PasswordChecks});
 * a right one is remembered ({@link CachingPasswordEncoder}), so Prometheus's scrapes cost no check.
 */
final class OperatorLogin implements AuthenticationProvider {

    static final String NAME = "operator";

    private final String hash;
    private final CachingPasswordEncoder encoder;
    private final PasswordChecks checks;

    OperatorLogin(String hash, CachingPasswordEncoder encoder, PasswordChecks checks) {
        this.hash = hash;
        this.encoder = encoder;
        this.checks = checks;
    }

    @Override
    public Authentication authenticate(Authentication login) {
        String password = login.getCredentials() == null ? "" : login.getCredentials().toString();
        if (!NAME.equals(login.getName())) {
            throw new BadCredentialsException("not a user of this broker");
        }
        if (!encoder.remembers(password, hash)) {
            checks.admit(login.getDetails() instanceof WebAuthenticationDetails web ? web.getRemoteAddress() : null);
            if (!encoder.matches(password, hash)) {
                throw new BadCredentialsException("wrong password");
            }
        }
        return UsernamePasswordAuthenticationToken.authenticated(NAME, null, List.of(new SimpleGrantedAuthority("ROLE_OPERATOR")));
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
