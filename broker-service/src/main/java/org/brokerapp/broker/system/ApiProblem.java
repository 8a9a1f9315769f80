package org.brokerapp.broker.system;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import org.springframework.http.HttpStatus;

/**
 * A request the API refuses for a reason it names, with its HTTP status: each feature's problems
 * ({@code order.OrderProblem}, {@code search.SearchProblem}) extend this one type, mapped once to
 * RFC 9457 problem details by {@link ProblemDetailsAdvice}.
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

    public URI type() {
        return URI.create("https://brokerapp.org/problems/" + title.toLowerCase().replace(' ', '-'));
    }
}
