package org.brokerapp.broker.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** The fuzzer's findings: headers that failed deep down (a 500, an empty 406) are refused at the door. */
class HeaderCheckTests {

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "application/json                 | -                     | 200",
            "application/json; charset=UTF-8  | application/json, */* | 200",
            "-                                | -                     | 200",
            "application/json;charset=        | -                     | 415",
            "application/json;charset=x\u00e9 | -                     | 415",
            "application/json;charset=NOPE-42 | -                     | 415",
            "garbage                          | -                     | 415",
            "*/*                              | -                     | 415",
            "application/*                    | -                     | 415",
            "application/json;;;=             | -                     | 415",
            "application/json                 | garbage/;             | 400",
            "application/json                 | text/                 | 400"})
    void aHeaderThatIsNoMediaTypeIsRefusedAsAProblem(String contentType, String accept, int status) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/actuator/health");
        if (contentType != null) {
            request.addHeader("Content-Type", contentType);
        }
        if (accept != null) {
            request.addHeader("Accept", accept);
        }
        MockHttpServletResponse response = new MockHttpServletResponse();
        AtomicBoolean passed = new AtomicBoolean();

        new HeaderCheck().doFilter(request, response, (req, res) -> passed.set(true));

        assertThat(passed.get()).isEqualTo(status == 200);
        if (status != 200) {
            assertThat(response.getStatus()).isEqualTo(status);
            assertThat(response.getContentType()).isEqualTo("application/problem+json");
            assertThat(response.getContentAsString()).startsWith("{\"type\":\"about:blank\"").hasSizeLessThan(300);
        }
    }
}
