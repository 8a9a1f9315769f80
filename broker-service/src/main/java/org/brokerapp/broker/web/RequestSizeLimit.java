package org.brokerapp.broker.web;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * An order is a few hundred bytes; a body over 16 KiB is refused (413) before anything parses it,
 * whether its size is announced ({@code Content-Length}) or not ({@code Transfer-Encoding: chunked}):
 * a body of unannounced size is read up to one byte past the limit, and passed on from memory if it
 * fits. The relay's batches of events between brokers ({@code /internal/events}, at most 500 events
 * of under a KiB) get 1 MiB.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestSizeLimit extends OncePerRequestFilter {

    static final int MAX_BODY_BYTES = 16 * 1024;
    static final int MAX_EVENT_BATCH_BYTES = 1024 * 1024;

    /** The largest body this request may carry. */
    public static int maxBytes(HttpServletRequest request) {
        return "/internal/events".equals(request.getRequestURI()) ? MAX_EVENT_BATCH_BYTES : MAX_BODY_BYTES;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws ServletException, IOException {
        int max = maxBytes(request);
        long announced = request.getContentLengthLong();
        if (announced > max) {
            refuse(response, "the body is " + announced + " bytes; at most " + max + " are accepted");
            return;
        }
        if (announced < 0 && request.getHeader("Transfer-Encoding") != null) {
            byte[] body = readAtMost(request.getInputStream(), max + 1);
            if (body.length > max) {
                refuse(response, "the body is over " + max + " bytes; at most " + max + " are accepted");
                return;
            }
            chain.doFilter(new BufferedBody(request, body), response);
            return;
        }
        chain.doFilter(request, response);
    }

    /** Up to {@code limit} bytes of the stream. */
    public static byte[] readAtMost(InputStream in, int limit) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(limit, 4096));
        byte[] buffer = new byte[4096];
        int n;
        while (out.size() < limit && (n = in.read(buffer, 0, Math.min(buffer.length, limit - out.size()))) != -1) {
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static void refuse(HttpServletResponse response, String detail) throws IOException {
        // the connection still carries the rest of an unread body: do not keep it
        response.setHeader("Connection", "close");
        ProblemResponses.write(response, 413, "Content too large", detail);
    }
}
