package org.brokerapp.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** A refused password login is answered only after the delay, with no thread held; anything else at once. */
class FailedLoginDelayTests {

    private static final SecurityProperties PROPERTIES = new SecurityProperties(SecretsCheck.LOCAL_VALUES.get("broker.security.token-key"),
            Duration.ofHours(1), 3, 20, Duration.ZERO, 16, Duration.ofMillis(100), 5);

    private final FailedLoginDelay delay = new FailedLoginDelay(PROPERTIES);

    @Test
    void aRefusedLoginIsAnsweredAfterTheDelayWithoutAThread() throws Exception {
        MockHttpServletRequest request = login("Basic bm9ib2R5Ong=");
        MockHttpServletResponse response = new MockHttpServletResponse();
        long started = System.nanoTime();

        delay.doFilter(request, response, answering(HttpServletResponse.SC_UNAUTHORIZED));

        assertThat(request.isAsyncStarted()).as("the request thread is free").isTrue();
        assertThat(response.getContentAsString()).as("nothing answered yet").isEmpty();
        while (System.nanoTime() - started < 2_000_000_000L && response.getContentAsString().isEmpty()) {
            Thread.sleep(5);
        }
        assertThat(response.getContentAsString()).isEqualTo("refused");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(100)).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void aRightLoginOrABearerCallIsAnsweredAtOnce() throws Exception {
        MockHttpServletRequest right = login("Basic YWxpY2U6YWxpY2UtcHc=");
        MockHttpServletResponse ok = new MockHttpServletResponse();
        delay.doFilter(right, ok, answering(200));
        MockHttpServletRequest bearer = login("Bearer x");
        MockHttpServletResponse refused = new MockHttpServletResponse();
        delay.doFilter(bearer, refused, answering(HttpServletResponse.SC_UNAUTHORIZED));

        assertThat(right.isAsyncStarted()).isFalse();
        assertThat(ok.getContentAsString()).isEqualTo("refused");
        assertThat(bearer.isAsyncStarted()).isFalse();
        assertThat(refused.getContentAsString()).isEqualTo("refused");
    }

    private static MockHttpServletRequest login(String authorization) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/token");
        request.setAsyncSupported(true);
        request.addHeader("Authorization", authorization);
        return request;
    }

    private static MockFilterChain answering(int status) {
        return new MockFilterChain(new jakarta.servlet.http.HttpServlet() {
            @Override
            protected void service(jakarta.servlet.http.HttpServletRequest req, jakarta.servlet.http.HttpServletResponse res) throws java.io.IOException {
                res.setStatus(status);
                res.getWriter().write("refused");
            }
        });
    }
}
