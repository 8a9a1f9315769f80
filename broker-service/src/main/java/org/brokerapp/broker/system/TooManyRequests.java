package org.brokerapp.broker.system;

import java.time.Duration;

/** A rate limit was hit: answered 429 with Retry-After by {@link ProblemDetailsAdvice}. */
class TooManyRequests extends RuntimeException {

    private final Duration retryAfter;

    TooManyRequests(String detail, Duration retryAfter) {
        super(detail);
        this.retryAfter = retryAfter;
    }

    Duration retryAfter() {
        return retryAfter;
    }
}
