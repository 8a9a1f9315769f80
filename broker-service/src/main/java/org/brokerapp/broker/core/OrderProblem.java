package org.brokerapp.broker.core;

import java.time.Duration;
import java.util.Optional;

import org.springframework.http.HttpStatus;

/**
 * Every way an order request can be refused, each with its HTTP status: mapped once, to RFC 9457
 * problem details, by {@code system.ProblemDetailsAdvice} (as every {@link ApiProblem}).
 */
public abstract sealed class OrderProblem extends ApiProblem {

    private OrderProblem(HttpStatus status, String title, String detail) {
        super(status, title, detail);
    }

    /** The request is malformed or names something that does not exist (400). */
    public static final class Invalid extends OrderProblem {
        public Invalid(String detail) {
            super(HttpStatus.BAD_REQUEST, "Invalid order", detail);
        }
    }

    /** No such thing for this customer; another customer's order is indistinguishable from none (404). */
    public static final class NotFound extends OrderProblem {
        public NotFound(String detail) {
            super(HttpStatus.NOT_FOUND, "Not found", detail);
        }
    }

    /** The order is filled or cancelled already (409). */
    public static final class Closed extends OrderProblem {
        public Closed(String orderId, OrderStatus status) {
            super(HttpStatus.CONFLICT, "Order closed", "order " + orderId + " is " + status + " and cannot be cancelled");
        }
    }

    /** Not enough cash or shares to reserve (422). */
    public static final class Insufficient extends OrderProblem {
        public Insufficient(String detail) {
            super(HttpStatus.UNPROCESSABLE_CONTENT, "Insufficient holdings", detail);
        }
    }

    /** The customer holds the most open orders allowed (422). */
    public static final class TooManyOpen extends OrderProblem {
        public TooManyOpen(String detail) {
            super(HttpStatus.UNPROCESSABLE_CONTENT, "Too many open orders", detail);
        }
    }

    /** The request conflicts with the current state of things, which the detail describes (409). */
    public static final class Conflict extends OrderProblem {
        public Conflict(String title, String detail) {
            super(HttpStatus.CONFLICT, title, detail);
        }
    }

    /**
     * No broker instance owns the customer's account right now (its owner is changing, after a
     * rebalance or a crash), or the write of the order did not answer: retrying with the same
     * clientOrderId is safe and never places twice (503).
     */
    public static final class NotOwner extends OrderProblem {
        public NotOwner(String customerId) {
            super(HttpStatus.SERVICE_UNAVAILABLE, "Account busy", "the account of " + customerId
                    + " is being handed to another broker instance; retry with the same clientOrderId");
        }

        public NotOwner(String customerId, String detail) {
            super(HttpStatus.SERVICE_UNAVAILABLE, "Account busy", detail);
        }

        @Override
        public Optional<Duration> retryAfter() {
            return Optional.of(Duration.ofSeconds(1));
        }
    }

    /**
     * The customer placed as many new orders in the last second as they may, counted by their owner
     * across every region and instance (429; a retry after a second is taken).
     */
    public static final class TooFast extends OrderProblem {
        public TooFast(String detail) {
            super(HttpStatus.TOO_MANY_REQUESTS, "Too many requests", detail);
        }

        @Override
        public Optional<Duration> retryAfter() {
            return Optional.of(Duration.ofSeconds(1));
        }
    }

    /** A MARKET order needs a recent price of its symbol, and there is none (422). */
    public static final class NoPrice extends OrderProblem {
        public NoPrice(String detail) {
            super(HttpStatus.UNPROCESSABLE_CONTENT, "No price", detail);
        }
    }

    /**
     * The region that executes the order cannot be reached, or its circuit is open: nothing was sent,
     * or what was sent may or may not have executed; a retry with the same clientOrderId is safe (503).
     */
    public static final class RegionUnreachable extends OrderProblem {
        private final String region;
        private final Duration retryAfter;
        private final boolean sent;

        public RegionUnreachable(String region, Duration retryAfter, String detail) {
            this(region, retryAfter, detail, true);
        }

        private RegionUnreachable(String region, Duration retryAfter, String detail, boolean sent) {
            super(HttpStatus.SERVICE_UNAVAILABLE, "Region unreachable", detail);
            this.region = region;
            this.retryAfter = retryAfter;
            this.sent = sent;
        }

        /** Refused before anything was sent to the region (its circuit open, too many calls in flight): it executed nothing. */
        public static RegionUnreachable beforeSending(String region, Duration retryAfter, String detail) {
            return new RegionUnreachable(region, retryAfter, detail, false);
        }

        /** Whether anything of this call may have reached the region (and been executed there). */
        public boolean sent() {
            return sent;
        }

        @Override
        public Optional<Duration> retryAfter() {
            return Optional.of(retryAfter);
        }

        @Override
        public Optional<String> region() {
            return Optional.of(region);
        }
    }

    /** The executing region did not answer in time: the order may have executed; retrying with the same clientOrderId tells (504). */
    public static final class RegionTimedOut extends OrderProblem {
        private final String region;

        public RegionTimedOut(String region, String detail) {
            super(HttpStatus.GATEWAY_TIMEOUT, "Region timed out", detail);
            this.region = region;
        }

        @Override
        public Optional<Duration> retryAfter() {
            return Optional.of(Duration.ofSeconds(1));
        }

        @Override
        public Optional<String> region() {
            return Optional.of(region);
        }
    }

    /** The executing region refused the order (insufficient holdings, no price...): its answer, passed on as it came. */
    public static final class Relayed extends OrderProblem {
        private final String region;
        private final Optional<Duration> retryAfter;

        public Relayed(String region, HttpStatus status, String title, String detail, Optional<Duration> retryAfter) {
            super(status, title, detail);
            this.region = region;
            this.retryAfter = retryAfter;
        }

        @Override
        public Optional<Duration> retryAfter() {
            return retryAfter;
        }

        @Override
        public Optional<String> region() {
            return Optional.of(region);
        }
    }

    /**
     * The executing region answered with a fill that cannot be this order's (a price above what was
     * reserved, another quantity): nothing is booked on the answer, and the reservation stays until
     * the ledger says what happened (502).
     */
    public static final class BadAnswer extends OrderProblem {
        private final String region;

        public BadAnswer(String region, String detail) {
            super(HttpStatus.BAD_GATEWAY, "Bad answer from region", detail);
            this.region = region;
        }

        @Override
        public Optional<String> region() {
            return Optional.of(region);
        }
    }
}
