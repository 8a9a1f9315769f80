package org.brokerapp.broker.peer;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.brokerapp.broker.web.BufferedBody;
import org.brokerapp.broker.web.ProblemResponses;
import org.brokerapp.broker.web.RequestSizeLimit;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates every {@code /internal/**} call by its signature ({@link PeerVerifier}): a verified
 * call runs as a {@link PeerCall} with role {@code PEER}; any other is 401 problem+json before a
 * controller sees it. No password or shared secret opens {@code /internal/**}. Added to the
 * security filter chain by {@code security.SecurityConfiguration} (not a servlet filter of its own).
 */
public final class PeerAuthenticationFilter extends OncePerRequestFilter {

    private final PeerVerifier verifier;

    public PeerAuthenticationFilter(PeerVerifier verifier) {
        this.verifier = verifier;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith("/internal/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws ServletException, IOException {
        byte[] body = RequestSizeLimit.readAtMost(request.getInputStream(), RequestSizeLimit.maxBytes(request) + 1);
        String pathAndQuery = request.getRequestURI() + (request.getQueryString() == null ? "" : "?" + request.getQueryString());
        PeerCall call;
        try {
            call = verifier.verify(request.getMethod(), pathAndQuery, request::getHeader, body);
        } catch (PeerVerifier.Refused refused) {
            ProblemResponses.write(response, HttpServletResponse.SC_UNAUTHORIZED, "Unauthorized", refused.getMessage());
            return;
        }
        SecurityContextHolder.getContext().setAuthentication(new Authenticated(call));
        chain.doFilter(new BufferedBody(request, body), response);
    }

    /** A verified peer call as Spring Security's authentication. */
    public static final class Authenticated extends AbstractAuthenticationToken {

        private final PeerCall call;

        Authenticated(PeerCall call) {
            super(List.of(new SimpleGrantedAuthority("ROLE_PEER")));
            this.call = call;
            setAuthenticated(true);
        }

        @Override
        public Object getCredentials() {
            return "";
        }

        @Override
        public PeerCall getPrincipal() {
            return call;
        }

        @Override
        public String getName() {
            return call.region() + "/" + call.customerId();
        }
    }
}
