package org.brokerapp.broker.web;

import java.time.DateTimeException;
import java.util.Optional;

import org.springframework.http.converter.HttpMessageNotReadableException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/** Says what is wrong with a JSON body in terms of its fields, never in terms of Java classes. */
final class JsonErrors {

    private JsonErrors() {
    }

    static String explain(HttpMessageNotReadableException e) {
        Throwable cause = e.getMostSpecificCause();
        if (cause instanceof InvalidFormatException f) {
            return field(f) + "has an invalid value '" + Excerpt.of(f.getValue()) + "'" + allowed(f);
        }
        if (cause instanceof UnrecognizedPropertyException u) {
            return "unknown field '" + Excerpt.of(u.getPropertyName()) + "'" + (u.getPath().size() > 1 ? " in " + field(u).trim() : "");
        }
        if (cause instanceof MismatchedInputException m) {
            return field(m) + "has the wrong type";
        }
        if (cause instanceof DateTimeException) {
            // a time Jackson handed to java.time, which refused it: the field is on the Jackson exception around it
            return jacksonAround(e).map(JsonErrors::field).orElse("the body ") + "is not a time like 2026-12-31T21:00:00Z";
        }
        if (cause instanceof StreamConstraintsException) {
            // the parser's own bounds, which it checks before it reads on and reports with no location
            return "the JSON is nested too deeply, or a number, string or name in it is too long";
        }
        if (cause instanceof JacksonException j) {
            return j.getLocation() == null ? "malformed JSON"
                    : "malformed JSON at line " + j.getLocation().getLineNr() + ", column " + j.getLocation().getColumnNr();
        }
        return e.getMessage() != null && e.getMessage().startsWith("Required request body is missing") ? "the body is missing" : "unreadable";
    }

    private static Optional<JacksonException> jacksonAround(Throwable e) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof JacksonException j) {
                return Optional.of(j);
            }
        }
        return Optional.empty();
    }

    private static String field(JacksonException e) {
        String path = e.getPath().stream()
                .map(r -> r.getPropertyName() != null ? r.getPropertyName() : "[" + r.getIndex() + "]")
                .reduce((a, b) -> a + "." + b).orElse("");
        return path.isEmpty() ? "the body " : path + " ";
    }

    private static String allowed(InvalidFormatException f) {
        Class<?> type = f.getTargetType();
        if (type != null && type.isEnum()) {
            StringBuilder values = new StringBuilder();
            for (Object constant : type.getEnumConstants()) {
                values.append(values.isEmpty() ? "" : ", ").append(constant);
            }
            return " (one of " + values + ")";
        }
        return type != null && Number.class.isAssignableFrom(type) ? " (a number)" : "";
    }
}
