package org.brokerapp.broker.security;

import java.time.Duration;
import java.util.Optional;

import org.brokerapp.broker.core.ApiProblem;
import org.springframework.http.HttpStatus;

/** A rate limit was hit (429, with Retry-After). */
final class TooManyRequests extends ApiProblem {

    private final Duration retryAfter;

    TooManyRequests(String detail, Duration retryAfter) {
        super(HttpStatus.TOO_MANY_REQUESTS, "Too many requests", detail);
        this.retryAfter = retryAfter;
    }

    @Override
    public Optional<Duration> retryAfter() {
        return Optional.of(retryAfter);
    }
}
