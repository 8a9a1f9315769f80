package org.brokerapp.loadtest.report;

import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The run as JSON ({@code results.json}): every figure of the reports, for tools and for comparing runs. */
public final class JsonReport {

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private JsonReport() {
    }

    public static String render(RunResult result) {
        return JSON.writeValueAsString(result);
    }

    public static RunResult read(String json) {
        return JSON.readValue(json, RunResult.class);
    }
}
