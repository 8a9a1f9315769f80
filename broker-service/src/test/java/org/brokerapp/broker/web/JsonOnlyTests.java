package org.brokerapp.broker.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.http.converter.yaml.JacksonYamlHttpMessageConverter;

/** The finding: YAML (brought by springdoc) was accepted on the API; only JSON is. */
class JsonOnlyTests {

    @Test
    void yamlIsRefusedAndJsonKept() {
        assertThat(JsonOnly.speaksAnotherFormat(new JacksonYamlHttpMessageConverter())).isTrue();
        assertThat(JsonOnly.speaksAnotherFormat(new JacksonJsonHttpMessageConverter())).isFalse();
        assertThat(JsonOnly.speaksAnotherFormat(new StringHttpMessageConverter())).isFalse();
    }
}
