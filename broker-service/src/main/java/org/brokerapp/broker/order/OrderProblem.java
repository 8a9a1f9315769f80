package org.brokerapp.broker.order;

import java.net.URI;

import org.springframework.http.HttpStatus;

/**
 * Every way an order request can be refused, each with its HTTP status: mapped once, to RFC 9457
 * problem details, by {@code system.ProblemDetailsAdvice}.
 */
public abstract sealed class OrderProblem extends RuntimeException {

    private final HttpStatus status;
    private final String title;

    private OrderProblem(HttpStatus status, String title, String detail) {
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

    public URI type() {
        return URI.create("https://brokerapp.org/problems/" + title.toLowerCase().replace(' ', '-'));
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

    /** Valid, but this broker does not do it (yet) (422 rather than 5xx: nothing is broken). */
    public static final class Unsupported extends OrderProblem {
        public Unsupported(String detail) {
            super(HttpStatus.UNPROCESSABLE_CONTENT, "Unsupported order", detail);
        }
    }

    /** Too many concurrent changes to the customer's ledger; safe to retry (409). */
    public static final class Contended extends OrderProblem {
        public Contended(String customerId) {
            super(HttpStatus.CONFLICT, "Ledger contended", "too many concurrent changes to the ledger of " + customerId + "; retry");
        }
    }
}
