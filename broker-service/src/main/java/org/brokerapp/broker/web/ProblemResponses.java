package org.brokerapp.broker.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;

/**
 * The problem+json of {@link ProblemDetailsAdvice}, written where Spring MVC's converters are not
 * there to do it: in servlet filters, the security entry points and Tomcat's own error valve. One
 * writer, so every refusal reads the same whichever layer refused.
 */
public final class ProblemResponses {

    private ProblemResponses() {
    }

    /** Writes status, content type and body; {@code title} and {@code detail} are quoted as JSON strings. */
    public static void write(HttpServletResponse response, int status, String title, String detail) throws IOException {
        write(response, status, title, detail, null);
    }

    /** The same with the request's path as {@code instance} (an excerpt of it: the path is the client's). */
    public static void write(HttpServletResponse response, int status, String title, String detail, String path) throws IOException {
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream().write(("{\"type\":\"about:blank\",\"title\":" + quoted(title) + ",\"status\":" + status
                + ",\"detail\":" + quoted(detail) + (path == null ? "" : ",\"instance\":" + quoted(Excerpt.of(path))) + "}")
                .getBytes(StandardCharsets.UTF_8));
    }

    static String quoted(String text) {
        StringBuilder json = new StringBuilder(text.length() + 2).append('"');
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                default -> json.append(c < 0x20 ? ' ' : c);
            }
        }
        return json.append('"').toString();
    }
}
