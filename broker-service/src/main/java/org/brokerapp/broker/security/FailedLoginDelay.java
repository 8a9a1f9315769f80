package org.brokerapp.broker.security;

import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Answers a refused password login ({@code Authorization: Basic ...} answered 401 or 429) only after
 * {@code broker.security.failed-login-delay}, without holding a thread meanwhile (the request goes
 * asynchronous and a timer completes it). A refusal costs the broker next to nothing (no hash), but
 * a client that sends logins one after another as fast as they are answered would otherwise take
 * every core the machine has; delayed, 32 such clients get at most 32 answers per delay. Right
 * logins are not delayed, and customers' bearer-token calls do not pass here at all.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 2)
class FailedLoginDelay extends OncePerRequestFilter implements DisposableBean {

    private final long delayMillis;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "failed-login-delay");
        thread.setDaemon(true);
        return thread;
    });

    FailedLoginDelay(SecurityProperties properties) {
        this.delayMillis = properties.failedLoginDelay().toMillis();
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        return delayMillis <= 0 || authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws ServletException, IOException {
        ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
        chain.doFilter(request, answer);
        int status = answer.getStatus();
        if ((status != HttpServletResponse.SC_UNAUTHORIZED && status != 429) || !request.isAsyncSupported() || request.isAsyncStarted()) {
            answer.copyBodyToResponse();
            return;
        }
        AsyncContext later = request.startAsync();
        later.setTimeout(delayMillis + 10_000);
        timer.schedule(() -> {
            try {
                answer.copyBodyToResponse();
            } catch (IOException gone) {
                // the client left meanwhile: nothing to answer
            } finally {
                later.complete();
            }
        }, delayMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void destroy() {
        timer.shutdownNow();
    }
}
