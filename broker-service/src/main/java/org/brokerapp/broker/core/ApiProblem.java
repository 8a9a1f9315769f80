package org.brokerapp.broker.core;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import org.springframework.http.HttpStatus;

/**
 * A request the API refuses for a reason it names, with its HTTP status: each feature's problems
 * ({@link OrderProblem}, {@code search.SearchProblem}, the rate limits and logins of
 * {@code security}) extend this one type, mapped once to RFC 9457 problem details by
 * {@code system.ProblemDetailsAdvice}.
 */
public abstract class ApiProblem extends RuntimeException {

    private final HttpStatus status;
    private final String title;

    protected ApiProblem(HttpStatus status, String title, String detail) {
        super(detail);
        this.status = status;
        this.title = title;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** When a retry may succeed, sent as {@code Retry-After}. */
    public Optional<Duration> retryAfter() {
        return Optional.empty();
    }

    /** The region the problem is about, when it is another region's. */
    public Optional<String> region() {
        return Optional.empty();
    }

    /** The {@code WWW-Authenticate} challenge, when the problem is a missing or wrong credential. */
    public Optional<String> challenge() {
        return Optional.empty();
    }

    public URI type() {
        return URI.create("https://brokerapp.org/problems/" + title.toLowerCase().replace(' ', '-'));
    }
}
