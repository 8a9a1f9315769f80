package org.brokerapp.broker.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.mock.http.MockHttpInputMessage;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** What a client is told of a body the parser refused, in terms of JSON, never of Java. */
class JsonErrorsTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void malformedJsonIsPlacedByLineAndColumn() {
        assertThat(explain("{\"symbol\":")).startsWith("malformed JSON at line 1, column");
    }

    /** The fuzzer's find: the parser reports its nesting bound with no location, and the explanation threw. */
    @Test
    void aBodyNestedPastTheParsersBoundIsSaidToBe() {
        String explanation = explain("{\"a\":".repeat(600) + "1" + "}".repeat(600));

        assertThat(explanation).isEqualTo("the JSON is nested too deeply, or a number, string or name in it is too long")
                .doesNotContain("Constraints", "500");
    }

    /** Finding (#55): {@code "timeInForce":"IOC"} was dropped and the order rested as good-till-cancelled. */
    @Test
    void anUnknownFieldIsNamed() {
        JsonMapper strict = JsonMapper.builder().enable(tools.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
        JacksonException refused = catchThrowableOfType(JacksonException.class,
                () -> strict.readValue("{\"symbol\":\"IBM\",\"timeInForce\":\"IOC\"}", Named.class));

        assertThat(JsonErrors.explain(new HttpMessageNotReadableException("JSON parse error", refused, new MockHttpInputMessage(new byte[0]))))
                .isEqualTo("unknown field 'timeInForce'");
    }

    record Named(String symbol) {
    }

    private static String explain(String body) {
        JacksonException refused = catchThrowableOfType(JacksonException.class, () -> JSON.readTree(body));
        return JsonErrors.explain(new HttpMessageNotReadableException("JSON parse error", refused, new MockHttpInputMessage(new byte[0])));
    }
}
