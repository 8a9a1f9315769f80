package org.brokerapp.broker.peer;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Signs every answer to {@code /internal/**} with this region's key, bound to the call it answers
 * (its nonce), its status and its body ({@link PeerSignature#ANSWER_SIGNATURE}). The calling broker
 * acts on no answer without it ({@link PeerLinks#post}): a fill answered for a routed MARKET order,
 * or a refusal that releases a reservation, comes from the region it was sent to or from nobody,
 * over {@code http://} or not. Runs before {@link PeerAuthenticationFilter}, so a refusal of the
 * call's own signature is signed too. Added to the security filter chain by {@code security.SecurityConfiguration}.
 */
public final class PeerAnswerSigning extends OncePerRequestFilter {

    private final PeerSigner signer;

    public PeerAnswerSigning(PeerSigner signer) {
        this.signer = signer;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith("/internal/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws ServletException, IOException {
        ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
        try {
            chain.doFilter(request, answer);
        } finally {
            String nonce = request.getHeader(PeerSignature.NONCE);
            answer.setHeader(PeerSignature.ANSWER_SIGNATURE, signer.signAnswer(nonce == null ? "" : nonce, answer.getStatus(),
                    answer.getContentAsByteArray()));
            answer.copyBodyToResponse();
        }
    }
}
