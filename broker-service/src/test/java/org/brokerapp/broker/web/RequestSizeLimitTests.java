package org.brokerapp.broker.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.StreamUtils;

/** Chunked bodies are bounded like sized ones (the finding: a chunked body skipped the 16 KiB limit). */
class RequestSizeLimitTests {

    private final RequestSizeLimit limit = new RequestSizeLimit();

    @Test
    void aChunkedBodyOverTheLimitIsRefusedBeforeAnythingReadsIt() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        AtomicReference<HttpServletRequest> passed = new AtomicReference<>();

        limit.doFilter(chunked("x".repeat(RequestSizeLimit.MAX_BODY_BYTES + 1)), response, (req, res) -> passed.set((HttpServletRequest) req));

        assertThat(passed.get()).isNull();
        assertThat(response.getStatus()).isEqualTo(413);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
    }

    @Test
    void aChunkedBodyWithinTheLimitIsPassedOnWhole() throws Exception {
        String body = "{\"clientOrderId\":\"" + "x".repeat(RequestSizeLimit.MAX_BODY_BYTES - 100) + "\"}";
        AtomicReference<String> read = new AtomicReference<>();

        limit.doFilter(chunked(body), new MockHttpServletResponse(),
                (req, res) -> read.set(StreamUtils.copyToString(req.getInputStream(), StandardCharsets.UTF_8)));

        assertThat(read.get()).isEqualTo(body);
    }

    @Test
    void anAnnouncedBodyOverTheLimitIsRefused() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/orders");
        request.setContent(new byte[RequestSizeLimit.MAX_BODY_BYTES + 1]);
        MockHttpServletResponse response = new MockHttpServletResponse();

        limit.doFilter(request, response, (req, res) -> { });

        assertThat(response.getStatus()).isEqualTo(413);
    }

    /** A request as Tomcat presents a chunked one: no Content-Length. */
    private static MockHttpServletRequest chunked(String body) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/orders") {
            @Override
            public int getContentLength() {
                return -1;
            }

            @Override
            public long getContentLengthLong() {
                return -1;
            }
        };
        request.setContent(body.getBytes(StandardCharsets.UTF_8));
        request.addHeader("Transfer-Encoding", "chunked");
        request.setContentType("application/json");
        return request;
    }
}
