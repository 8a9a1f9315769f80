package org.brokerapp.broker.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ProblemResponsesTests {

    @Test
    void anyTextMakesValidJsonAndAClientsPathIsOnlyQuotedInPart() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();

        ProblemResponses.write(response, 415, "Unsupported \"Media\" Type", "a \\ b \u0000 c", "/api/" + "x".repeat(500) + "\"}");

        JsonNode body = JsonMapper.builder().build().readTree(response.getContentAsString());
        assertThat(response.getStatus()).isEqualTo(415);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        assertThat(body.path("title").asString()).isEqualTo("Unsupported \"Media\" Type");
        assertThat(body.path("detail").asString()).isEqualTo("a \\ b   c");
        assertThat(body.path("instance").asString()).hasSizeLessThanOrEqualTo(Excerpt.MAX_CHARS + 3);
        assertThat(body.path("status").asInt()).isEqualTo(415);
    }
}
