package org.brokerapp.broker.search;

import java.time.Duration;
import java.util.Optional;

import org.brokerapp.broker.core.ApiProblem;
import org.springframework.http.HttpStatus;

/** A search refused (400) or not answerable (503); mapped to problem+json by the one error advice. */
public abstract sealed class SearchProblem extends ApiProblem {

    private SearchProblem(HttpStatus status, String title, String detail) {
        super(status, title, detail);
    }

    /** A parameter is missing, malformed or out of range (400). */
    public static final class Invalid extends SearchProblem {
        public Invalid(String detail) {
            super(HttpStatus.BAD_REQUEST, "Invalid search", detail);
        }
    }

    /** No region's index answered in time (503). */
    public static final class Unavailable extends SearchProblem {
        public Unavailable(String detail) {
            super(HttpStatus.SERVICE_UNAVAILABLE, "Search unavailable", detail);
        }

        @Override
        public Optional<Duration> retryAfter() {
            return Optional.of(Duration.ofSeconds(1));
        }
    }
}
