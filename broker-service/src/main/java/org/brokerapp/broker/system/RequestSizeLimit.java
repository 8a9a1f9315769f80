package org.brokerapp.broker.system;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * An order is a few hundred bytes; a body over 16 KiB is refused before anything reads it. The
 * relay's batches of events between brokers ({@code /internal/events}, at most 500 events of under
 * a KiB) get 1 MiB.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class RequestSizeLimit extends OncePerRequestFilter {

    static final long MAX_BODY_BYTES = 16 * 1024;
    static final long MAX_EVENT_BATCH_BYTES = 1024 * 1024;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws ServletException, IOException {
        long max = "/internal/events".equals(request.getRequestURI()) ? MAX_EVENT_BATCH_BYTES : MAX_BODY_BYTES;
        if (request.getContentLengthLong() > max) {
            response.setStatus(413);
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.getOutputStream().write(("{\"type\":\"about:blank\",\"title\":\"Content too large\",\"status\":413,\"detail\":\"the body is "
                    + request.getContentLengthLong() + " bytes; at most " + max + " are accepted\"}").getBytes(StandardCharsets.UTF_8));
            return;
        }
        chain.doFilter(request, response);
    }
}
